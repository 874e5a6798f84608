-- perfdb schema 3: benchmarks that failed in a run (non-zero exits, a tool's error
-- entry, a failed repetition): a status kept beside the results, read by compare.
CREATE TABLE failures (
  run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  benchmark  TEXT NOT NULL,
  dims       TEXT NOT NULL,   -- as series.dims
  reason     TEXT NOT NULL,
  PRIMARY KEY (run_id, benchmark, dims)
) WITHOUT ROWID;
