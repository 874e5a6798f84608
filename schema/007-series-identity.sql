-- perfdb schema 7: a series is what the user means by "the same benchmark".
-- fio: only the workload options (and dir, clone) stay dims; every other job
-- option (runtime, size, time_based, the file names, ...) moves to the run's
-- attribute fio.job[NAME].KEY (NAME#CLONE for a clone), as ingest now writes
-- it, and the results move to the series of the workload. Nothing is dropped:
-- a value is kept as the attribute (an attribute of that name already there
-- wins, being the same option). hyperfine's parameter scans are renamed by C
-- code after this step (lib/store_migrate.c). The detect caches are rebuilt.
DELETE FROM detect_points;
DELETE FROM detect_cache;
CREATE TEMP TABLE fio_series AS
  SELECT s.id AS old_id, s.benchmark, s.metric, s.unit, s.direction,
         (SELECT json_group_object(key, value) FROM
            (SELECT key, value FROM json_each(s.dims)
             WHERE key IN ('rw', 'readwrite', 'bs', 'blocksize', 'iodepth', 'numjobs',
                           'rwmixread', 'rwmixwrite', 'ioengine', 'direct', 'dir', 'clone')
             ORDER BY key)) AS dims
  FROM series s
  WHERE s.id IN (SELECT r.series_id FROM results r JOIN runs u ON u.id = r.run_id
                 WHERE u.tool = 'fio');
DELETE FROM temp.fio_series WHERE dims = (SELECT dims FROM series WHERE id = old_id);
INSERT OR IGNORE INTO run_attrs (run_id, key, value)
  SELECT r.run_id,
         'fio.job[' || s.benchmark ||
           COALESCE('#' || json_extract(s.dims, '$.clone'), '') || '].' || j.key,
         j.value
  FROM temp.fio_series f JOIN series s ON s.id = f.old_id
       JOIN results r ON r.series_id = s.id JOIN runs u ON u.id = r.run_id AND u.tool = 'fio',
       json_each(s.dims) j
  WHERE j.key NOT IN ('rw', 'readwrite', 'bs', 'blocksize', 'iodepth', 'numjobs',
                      'rwmixread', 'rwmixwrite', 'ioengine', 'direct', 'dir', 'clone');
INSERT OR IGNORE INTO series (benchmark, dims, metric, unit, direction)
  SELECT benchmark, dims, metric, unit, direction FROM temp.fio_series;
UPDATE results SET series_id =
    (SELECT n.id FROM temp.fio_series f
     JOIN series n ON n.benchmark = f.benchmark AND n.dims = f.dims AND n.metric = f.metric
     WHERE f.old_id = results.series_id)
  WHERE series_id IN (SELECT old_id FROM temp.fio_series)
    AND run_id IN (SELECT id FROM runs WHERE tool = 'fio');
DELETE FROM series WHERE id IN (SELECT old_id FROM temp.fio_series)
  AND NOT EXISTS (SELECT 1 FROM results WHERE series_id = series.id);
DROP TABLE temp.fio_series;
