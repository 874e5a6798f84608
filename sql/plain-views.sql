-- samples_v and stats_v for plain sqlite3, as temporary views (the file is not
-- changed): sqlite3 -cmd '.read sql/plain-views.sql' perfdb.db 'SELECT ... FROM samples_v'
-- The same columns and values as perfdb sql's views, in SQL alone: each 8-byte
-- little-endian double of results.samples, offsets and weights is taken apart
-- from its hex digits into sign, exponent and mantissa and rebuilt as
-- mantissa * 2^exponent, which is exact (a power of two from a table made by
-- doubling). NaN (an absent offset or weight) is NULL. Slower than perfdb sql's:
-- every query unpacks every sample before its WHERE applies.
CREATE TEMP VIEW samples_v AS
WITH RECURSIVE
  idx(result_id, i, n) AS (
    SELECT id, 0, length(samples) / 8 FROM main.results WHERE length(samples) >= 8
    UNION ALL SELECT result_id, i + 1, n FROM idx WHERE i + 1 < n),
  p2(k, v) AS (
    SELECT -1074, 4.9406564584124654e-324
    UNION ALL SELECT k + 1, v * 2 FROM p2 WHERE k < 971),
  words(result_id, i, which, h) AS (
    SELECT idx.result_id, idx.i, w.which,
           hex(substr(CASE w.which WHEN 0 THEN r.samples WHEN 1 THEN r.offsets ELSE r.weights END,
                      8 * idx.i + 1, 8))
    FROM idx JOIN main.results r ON r.id = idx.result_id,
         (SELECT 0 AS which UNION ALL SELECT 1 UNION ALL SELECT 2) w),
  bytes(result_id, i, which, b0, b1, b2, b3, b4, b5, b6, b7) AS (
    SELECT result_id, i, which,
      (instr('0123456789ABCDEF', substr(h, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 1,
      (instr('0123456789ABCDEF', substr(h, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(h, 4, 1)) - 1,
      (instr('0123456789ABCDEF', substr(h, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(h, 6, 1)) - 1,
      (instr('0123456789ABCDEF', substr(h, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(h, 8, 1)) - 1,
      (instr('0123456789ABCDEF', substr(h, 9, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(h, 10, 1)) - 1,
      (instr('0123456789ABCDEF', substr(h, 11, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(h, 12, 1)) - 1,
      (instr('0123456789ABCDEF', substr(h, 13, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(h, 14, 1)) - 1,
      (instr('0123456789ABCDEF', substr(h, 15, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(h, 16, 1)) - 1
    FROM words WHERE length(h) = 16),
  parts(result_id, i, which, s, e, m) AS (
    SELECT result_id, i, which, b7 >> 7, ((b7 & 127) << 4) | (b6 >> 4),
           ((b6 & 15) << 48) | (b5 << 40) | (b4 << 32) | (b3 << 24) | (b2 << 16) | (b1 << 8) | b0
    FROM bytes),
  doubles(result_id, i, which, v) AS (
    SELECT result_id, i, which,
      CASE WHEN e = 2047 THEN CASE WHEN m = 0 THEN CASE s WHEN 1 THEN -9e999 ELSE 9e999 END END
           ELSE (1 - 2 * s) * (CASE WHEN e = 0 THEN m ELSE m + 4503599627370496 END) * p2.v END
    FROM parts LEFT JOIN p2 ON p2.k = max(e, 1) - 1075),
  samples(result_id, i, value, t, weight) AS (
    SELECT result_id, i, max(CASE which WHEN 0 THEN v END), max(CASE which WHEN 1 THEN v END),
           max(CASE which WHEN 2 THEN v END)
    FROM doubles GROUP BY result_id, i)
SELECT ru.id AS run_id, ru.name AS run_name, r.id AS result_id, se.benchmark, se.dims,
  se.metric, se.unit,
  CASE WHEN se.direction < 0 THEN 'higher' WHEN se.direction > 0 THEN 'lower' ELSE 'none' END AS direction,
  u.i AS sample, u.value, u.t, u.weight
FROM main.runs ru JOIN main.results r ON r.run_id = ru.id
  JOIN main.series se ON se.id = r.series_id
  JOIN samples u ON u.result_id = r.id;

CREATE TEMP VIEW stats_v AS SELECT
  ru.id AS run_id, ru.name AS run_name, r.id AS result_id, se.benchmark, se.dims,
  se.metric, se.unit,
  CASE WHEN se.direction < 0 THEN 'higher' WHEN se.direction > 0 THEN 'lower' ELSE 'none' END AS direction,
  st.name AS stat, st.value
FROM main.runs ru JOIN main.results r ON r.run_id = ru.id
  JOIN main.series se ON se.id = r.series_id
  JOIN main.stats st ON st.result_id = r.id;
