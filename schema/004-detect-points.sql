-- perfdb schema 4: the values detect splits, cached per series and run
-- selection, so that after new runs only their results are read; and the
-- one-run spikes found, so that only the tail is tested again.
--
-- Runs are numbered upwards and never renumbered, and a run's results are
-- stored with it, so the results up to last_run change only when some are
-- removed or changed: the triggers below void the series' rows then,
-- whichever program does it.
CREATE TABLE detect_points (
  series_id  INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
  selection  TEXT NOT NULL,      -- since and where of the runs read
  last_run   INTEGER NOT NULL,   -- the newest run read
  run_ids    BLOB NOT NULL,      -- the gaps between run ids (the first from 0), LEB128 varints
  vals       BLOB NOT NULL,      -- packed little-endian doubles, one per point
  PRIMARY KEY (series_id, selection)
);
CREATE TRIGGER detect_points_delete AFTER DELETE ON results BEGIN
  DELETE FROM detect_points WHERE series_id = OLD.series_id;
END;
CREATE TRIGGER detect_points_update AFTER UPDATE ON results BEGIN
  DELETE FROM detect_points WHERE series_id IN (OLD.series_id, NEW.series_id);
END;
CREATE TRIGGER detect_points_insert AFTER INSERT ON results BEGIN
  DELETE FROM detect_points WHERE series_id = NEW.series_id AND last_run >= NEW.run_id;
END;

-- The spike test of a point looks PDB_DETECT_SPIKE_CONTEXT points either
-- side: the spikes of the first xcovered points (xchecksum their hash) that
-- lie before the last 8 are final.
ALTER TABLE detect_cache ADD COLUMN xcovered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE detect_cache ADD COLUMN xchecksum INTEGER NOT NULL DEFAULT 0;
ALTER TABLE detect_cache ADD COLUMN spikes TEXT NOT NULL DEFAULT '';
