-- perfdb schema 1: runs, attributes, series, results, samples, stats.
CREATE TABLE runs (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- shown as runN, never reused
  uuid        TEXT NOT NULL UNIQUE,
  name        TEXT UNIQUE,
  created_at  TEXT NOT NULL,                      -- ISO 8601 UTC
  tool        TEXT,
  format      TEXT,
  source      TEXT,
  sha256      TEXT,
  status      TEXT NOT NULL DEFAULT 'complete'
);
CREATE INDEX runs_sha256 ON runs(sha256);

CREATE TABLE run_attrs (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key     TEXT NOT NULL,
  value   TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE INDEX run_attrs_key ON run_attrs(key, value);

-- What stays comparable across runs: (benchmark, dims, metric).
-- dims is a compact JSON object with sorted keys ("{}" when none).
CREATE TABLE series (
  id         INTEGER PRIMARY KEY,
  benchmark  TEXT NOT NULL,
  dims       TEXT NOT NULL,
  metric     TEXT NOT NULL,
  unit       TEXT NOT NULL,        -- canonical unit
  direction  INTEGER NOT NULL,     -- -1 higher is better, 0 none, 1 lower is better
  UNIQUE (benchmark, dims, metric)
);

-- One series in one run. Samples are packed little-endian doubles (8 bytes
-- each): values always, time offsets and weights only when the tool gave them.
CREATE TABLE results (
  id         INTEGER PRIMARY KEY,
  run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  series_id  INTEGER NOT NULL REFERENCES series(id),
  raw_unit   TEXT,
  raw_name   TEXT,
  n          INTEGER NOT NULL,
  samples    BLOB,
  offsets    BLOB,
  weights    BLOB,
  UNIQUE (run_id, series_id)
);
CREATE INDEX results_series ON results(series_id, run_id);

-- Statistics as the tool computed them, canonical unit.
CREATE TABLE stats (
  result_id  INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  value      REAL,
  PRIMARY KEY (result_id, name)
) WITHOUT ROWID;
