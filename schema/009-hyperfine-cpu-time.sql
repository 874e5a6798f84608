-- perfdb schema 9: hyperfine's user and system (the mean CPU seconds of a
-- run of a command) are the series user_time and sys_time, and their sum
-- cpu_time, as ingest now writes them: the gate reads a benchmark's CPU time
-- beside its wall time (issue 38). The statistics user and system of a
-- hyperfine run's time series move to the mean of those series; nothing is
-- dropped. The detect caches stay valid (the new series have none yet).
CREATE TEMP TABLE hyperfine_cpu AS
  SELECT r.id AS result_id, r.run_id, s.benchmark, s.dims,
         (SELECT value FROM stats WHERE result_id = r.id AND name = 'user') AS user,
         (SELECT value FROM stats WHERE result_id = r.id AND name = 'system') AS sys
  FROM results r JOIN runs u ON u.id = r.run_id AND u.tool = 'hyperfine'
       JOIN series s ON s.id = r.series_id AND s.metric = 'time'
  WHERE EXISTS (SELECT 1 FROM stats WHERE result_id = r.id AND name IN ('user', 'system'));
CREATE TEMP TABLE hyperfine_cpu_values AS
  SELECT run_id, benchmark, dims, 'user_time' AS metric, user AS value
    FROM temp.hyperfine_cpu WHERE user IS NOT NULL
  UNION ALL
  SELECT run_id, benchmark, dims, 'sys_time', sys FROM temp.hyperfine_cpu WHERE sys IS NOT NULL
  UNION ALL
  SELECT run_id, benchmark, dims, 'cpu_time', user + sys
    FROM temp.hyperfine_cpu WHERE user IS NOT NULL AND sys IS NOT NULL;
INSERT OR IGNORE INTO series (benchmark, dims, metric, unit, direction)
  SELECT DISTINCT benchmark, dims, metric, 's', 1 FROM temp.hyperfine_cpu_values;
INSERT OR IGNORE INTO results (run_id, series_id, n)
  SELECT v.run_id, s.id, 0 FROM temp.hyperfine_cpu_values v
  JOIN series s ON s.benchmark = v.benchmark AND s.dims = v.dims AND s.metric = v.metric;
INSERT OR REPLACE INTO stats (result_id, name, value)
  SELECT r.id, 'mean', v.value FROM temp.hyperfine_cpu_values v
  JOIN series s ON s.benchmark = v.benchmark AND s.dims = v.dims AND s.metric = v.metric
  JOIN results r ON r.run_id = v.run_id AND r.series_id = s.id;
DELETE FROM stats WHERE name IN ('user', 'system')
  AND result_id IN (SELECT result_id FROM temp.hyperfine_cpu);
DROP TABLE temp.hyperfine_cpu_values;
DROP TABLE temp.hyperfine_cpu;
