"""make-gbench-json.py FIXTURE N OUT: a Google Benchmark JSON of N benchmarks,
each 3 repetitions and its mean, median, stddev and cv aggregates (7 rows), built
from the rows and context of a real Google Benchmark output (FIXTURE:
fixtures/google-benchmark/repetitions.json) with its keys and indentation;
seeded, so the same N gives the same bytes. 10,000 benchmarks are 33 MB."""
import json
import random
import sys

src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
doc = json.load(open(src))
it = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"][0]
agg = [b for b in doc["benchmarks"] if b["run_type"] == "aggregate"][0]
random.seed(5)
rows = []
for i in range(n):
    name = "BM_Copy/%d" % i
    for r in range(3):
        rows.append(dict(it, name=name, run_name=name, family_index=i, repetitions=3,
                         repetition_index=r, real_time=random.uniform(10, 100),
                         cpu_time=random.uniform(10, 100), bytes_per_second=random.uniform(1e9, 4e9)))
    for a in ("mean", "median", "stddev", "cv"):
        row = dict(agg, name=name + "_" + a, run_name=name, family_index=i, repetitions=3,
                   aggregate_name=a, real_time=random.uniform(10, 100),
                   cpu_time=random.uniform(10, 100), bytes_per_second=random.uniform(1e9, 4e9))
        if a == "cv":
            row["aggregate_unit"] = "percentage"
        rows.append(row)
doc["benchmarks"] = rows
with open(out, "w") as f:
    json.dump(doc, f, indent=2)
