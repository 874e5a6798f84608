#!/bin/sh
# The history behind the site's tests: runs FIRST..LAST (default 1..30) of a
# few series with known steps, ingested by the perfdb given as $1:
#   api/get time          +25 % from run 20 on (a regression, confirmed)
#   api/put throughput    +30 % from run 15 on (an improvement)
#   db/scan time rows=10, rows=1000, and startup time: flat
#   x/<b>bold</b> time    a name with markup (from run 25 on), attribute note with markup
# Failures: startup in run 12, db/scan rows=1000 in runs 29 and 30 (a reason
# with markup), broken/new (never a value, so no page) in run 30.
# Runs after 30 have api/get only. Noise is a fixed pattern of +-2 %.
# Usage: site-scenario.sh PERFDB [FIRST LAST]
perfdb=$1 first=${2:-1} last=${3:-30}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$dir" "$first" "$last" <<'PY' || exit 1
import datetime, json, sys
out, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def noise(r, s, i):
    return 1 + 0.02 * (((r * 37 + s * 11 + i * 5) % 17) - 8) / 8
def series(r, s, bench, dims, metric, unit, direction, level):
    return {"benchmark": bench, "dims": dims, "metric": metric, "unit": unit,
            "direction": direction, "samples": [level * noise(r, s, i) for i in range(3)]}
for r in range(first, last + 1):
    res = [series(r, 0, "api/get", {}, "time", "s", "lower", 0.010 * (1.25 if r >= 20 else 1))]
    if r <= 30:
        res += [series(r, 1, "api/put", {}, "throughput", "ops/s", "higher",
                       1000 * (1.3 if r >= 15 else 1)),
                series(r, 2, "db/scan", {"rows": "10"}, "time", "s", "lower", 0.002),
                series(r, 3, "db/scan", {"rows": "1000"}, "time", "s", "lower", 0.150),
                series(r, 4, "startup", {}, "time", "s", "lower", 1.5)]
    failures = []
    if r == 12:
        failures.append({"benchmark": "startup", "dims": {}, "reason": "exit status 2"})
    if r in (29, 30):
        failures.append({"benchmark": "db/scan", "dims": {"rows": "1000"},
                         "reason": "exit status 1: <oom> & killed"})
    if r == 30:
        failures.append({"benchmark": "broken/new", "dims": {}, "reason": "timed out after 60 s"})
    failed = {(f["benchmark"], json.dumps(f["dims"])) for f in failures}
    res = [x for x in res if (x["benchmark"], json.dumps(x["dims"])) not in failed]
    if 25 <= r <= 30:
        res.append(series(r, 5, "x/<b>bold</b>", {}, "time", "s", "lower", 0.5))
    day = datetime.date(2026, 1, 1) + datetime.timedelta(r - 1)
    doc = {"uuid": "00000000-0000-4000-8000-%012d" % r, "name": "v0.%d" % r,
           "created_at": day.isoformat() + "T12:00:00Z", "tool": "gen", "format": "perfdb",
           "source": "gen.json", "status": "complete",
           "attrs": {"branch": "main", "commit": "c%06d" % r, "host": "ci-1",
                     "note": "<img src=x onerror=alert(%d)> & 'q'" % r},
           "results": res, "failures": failures}
    json.dump(doc, open("%s/run-%03d.json" % (out, r), "w"))
PY
for f in "$dir"/run-*.json; do
  "$perfdb" ingest "$f" >/dev/null || exit 1
done
