-- perfdb schema 8: fio's iops and bw keep the stats of fio's per-interval
-- samples (iops_min/max/mean/stddev, bw_min/max/mean/dev) as interval_min,
-- interval_max, interval_mean and interval_stddev, as ingest now writes them:
-- beside the series' own max they read as a second, smaller max. Nothing else
-- changes; the detect caches stay valid (they read samples, not these stats).
UPDATE stats SET name = 'interval_' || name
WHERE name IN ('min', 'max', 'mean', 'stddev')
  AND result_id IN (SELECT r.id FROM results r
                    JOIN runs u ON u.id = r.run_id AND u.tool = 'fio'
                    JOIN series s ON s.id = r.series_id AND s.metric IN ('iops', 'bw'));
