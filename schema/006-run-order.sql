-- perfdb schema 6: runs in the order they were measured. seq is a run's
-- place in the order of (created_at, id) (created_at is UTC text as perfdb
-- writes it, so it sorts as time; the id breaks ties): a run measured after
-- every other takes the next number, an older one (merged or ingested
-- later) takes its place and the runs after it move up by one. Gaps are
-- left where runs were deleted. Every rule that means "older", "newer",
-- "latest" or "the history" orders by seq; ids stay the runs' names.
ALTER TABLE runs ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE runs SET seq = o.k FROM
  (SELECT id, row_number() OVER (ORDER BY created_at, id) AS k FROM runs) AS o
  WHERE o.id = runs.id;
CREATE INDEX runs_seq ON runs(seq);

-- The cached values of a series are those of the runs up to last_run in
-- this order: a result of a run at or before it voids them. Run ids are now
-- stored as signed gaps (a history's ids need not ascend), so the values
-- cached before are dropped.
DROP TRIGGER detect_points_insert;
CREATE TRIGGER detect_points_insert AFTER INSERT ON results BEGIN
  DELETE FROM detect_points WHERE series_id = NEW.series_id
    AND (SELECT seq FROM runs WHERE id = last_run) >=
        (SELECT seq FROM runs WHERE id = NEW.run_id);
END;
DELETE FROM detect_points;
