"""go test -bench -json: test2json events; the "output" events' Output strings,
concatenated in order, are the text output (a result line may be split over
several events), read as go-bench text."""
import json
from go_bench import read_text


def read(path):
    text = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            ev = json.loads(line)
            if ev.get("Action") == "output":
                text.append(ev.get("Output", ""))
    return read_text("".join(text))
