"""hyperfine --export-csv: one row of aggregates (seconds) per command;
parameter_X columns are the parameters."""
import csv
from _facts import series, result


def read(path):
    out = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            dims = {k[len("parameter_"):]: v for k, v in row.items() if k.startswith("parameter_")}
            stats = {k: float(row[k]) for k in ("mean", "stddev", "median", "user", "system", "min", "max")
                     if row.get(k) not in (None, "")}
            out.append(series(row["command"], "time", "s", "lower", [], stats, dims))
    return result(out)
