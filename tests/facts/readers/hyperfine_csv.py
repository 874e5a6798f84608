"""hyperfine --export-csv: one row of aggregates (seconds) per command;
parameter_X columns are the parameters; a scan is one benchmark named by the
command with {param} placeholders (_facts.scan_names)."""
import csv
from _facts import series, result, scan_names, occurrence
from hyperfine import cpu_series


def read(path):
    out = []
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    items = [(row["command"], {k[len("parameter_"):]: v for k, v in row.items()
                               if k.startswith("parameter_")}) for row in rows]
    seen = {}
    for row, name, (_, dims) in zip(rows, scan_names(items), items):
        dims = occurrence(seen, name, dims)
        stats = {k: float(row[k]) for k in ("mean", "stddev", "median", "min", "max")
                 if row.get(k) not in (None, "")}
        out.append(series(name, "time", "s", "lower", [], stats, dims))
        out += cpu_series(name, row.get("user"), row.get("system"), dims)
    return result(out)
