-- perfdb schema 2: weak change points cached per series for `perfdb detect`.
-- params names what the cached split depends on (window, first-pass p,
-- outlier mode, run filter); covered points with their checksum must still
-- match the series, else the cache is ignored and rewritten.
CREATE TABLE detect_cache (
  series_id  INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
  params     TEXT NOT NULL,
  covered    INTEGER NOT NULL,
  checksum   INTEGER NOT NULL,   -- 64-bit FNV-1a, stored as its signed bits
  resume     INTEGER NOT NULL,   -- start of the next split window
  weak       TEXT NOT NULL,      -- weak change points, ascending, comma-separated
  PRIMARY KEY (series_id, params)
) WITHOUT ROWID;
