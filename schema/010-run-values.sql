-- perfdb schema 10: one blob a run of its results' run values (struct
-- pdb_run_value, lib/model.h: what compare's history test reads of a result,
-- its median, quartiles and count), packed by series id (lib/run_values.c),
-- so that a history of N runs reads N rows, not a row a run and series and
-- every sample (docs/storage.md). Written with the run's results, in the
-- same transaction; the store keeps the bytes it is given and does not read
-- them. Filled for the stored runs by pdb_store_migrate_run_values
-- (lib/store/store_run_values.c) in the migration's transaction.
CREATE TABLE run_values (
  run_id  INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  vals    BLOB NOT NULL
);
