-- perfdb schema 5: a run in which a benchmark failed has no value for it.
-- Some tools time failed runs too (hyperfine --ignore-failure); those
-- samples stay stored, as the tool wrote them, but compare, detect, the
-- charts and the site no longer read them as values. The values detect
-- cached before were read with them: they are dropped, and the triggers
-- drop a series' cached values when a failure of its benchmark and dims is
-- added or removed, whichever program does it.
DELETE FROM detect_points;
DELETE FROM detect_cache;
CREATE TRIGGER detect_points_failure_insert AFTER INSERT ON failures BEGIN
  DELETE FROM detect_points WHERE series_id IN
    (SELECT id FROM series WHERE benchmark = NEW.benchmark AND dims = NEW.dims);
END;
CREATE TRIGGER detect_points_failure_delete AFTER DELETE ON failures BEGIN
  DELETE FROM detect_points WHERE series_id IN
    (SELECT id FROM series WHERE benchmark = OLD.benchmark AND dims = OLD.dims);
END;
