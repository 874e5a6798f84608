# Export the samples `perfdb compare BASE CAND` compares, for compare-scipy.py
# (run BEFORE timing; not part of the measured work).
#
#   /usr/bin/python3 compare-export.py DB BASE_RUN_ID CAND_RUN_ID OUT.npz
#
# Reads table `results`, column `samples` (packed little-endian doubles, see
# schema/001-init.sql) of the series present in both runs, and writes
# base and cand as float64 arrays of shape (series, samples) with the series'
# benchmark, dims and metric. Every series must have the same number of
# samples on each side (true of the bench data): the peer then works on two
# rectangular arrays, the form numpy and scipy's axis=1 want.
import sqlite3
import sys

import numpy as np

db, base_id, cand_id, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
con = sqlite3.connect(db)
rows = con.execute(
    """SELECT s.benchmark, s.dims, s.metric, s.unit, s.direction, b.samples, c.samples
       FROM series s JOIN results b ON b.series_id = s.id AND b.run_id = ?
                     JOIN results c ON c.series_id = s.id AND c.run_id = ?
       ORDER BY s.id""", (base_id, cand_id)).fetchall()
base = np.array([np.frombuffer(r[5], dtype="<f8") for r in rows])
cand = np.array([np.frombuffer(r[6], dtype="<f8") for r in rows])
assert base.ndim == 2 and cand.ndim == 2, "series with differing sample counts"
np.savez(out, base=base, cand=cand,
         benchmark=np.array([r[0] for r in rows]), dims=np.array([r[1] for r in rows]),
         metric=np.array([r[2] for r in rows]), unit=np.array([r[3] for r in rows]),
         direction=np.array([r[4] for r in rows]))
