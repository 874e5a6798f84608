#!/usr/bin/env python3
"""Value-mutation fuzz of the charts (issue 31): take fixtures, replace their
numbers by the values ingest accepts and charts find hardest (±DBL_MAX,
±1e308, ±5e-324, NaN, ±Infinity, 0, -0), and their names by labels of 1-200
bytes of mixed UTF-8 (tests/fuzz/labels.txt and random ones), ingest each
mutant beside the fixture it came from and run every chart on it: plot
latency, history, scaling and compare, report and site, each under a timeout.

A sanitizer report or a signal is a crash, the timeout a hang, a chart cairo
refused as "not valid UTF-8" or a page (HTML, Markdown, SVG) that is not
UTF-8 a cut; each is kept (the mutant, the command, its stderr) under
OUT/crashes, OUT/hangs or OUT/cuts. Prints the counts; exits 1 when there
was any.

Usage: values.py PERFDB OUT SECONDS [SEED]
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

SPECIAL = ["1.7976931348623157e308", "-1.7976931348623157e308", "1e308", "-1e308",
           "5e-324", "-5e-324", "NaN", "Infinity", "-Infinity", "0", "-0"]
# a number not inside a word (run1, x86_64, v1.2 stay); JSON keys are strings
NUMBER = re.compile(r'(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])')
# the string values of the keys that become chart labels in the formats
NAME = re.compile(r'("(?:benchmark|name|command|fullName|metric|group|test|id|commit|branch)"\s*:\s*)"((?:[^"\\]|\\.)*)"')
# characters of 1 to 4 bytes: ASCII, Latin, Cyrillic, CJK, combining, RTL, emoji
POOL = ["a", "Z", "7", " ", "-", "_", "é", "ß", "Ж", "я", "ю", "中", "文", "한",
        "\u0301", "א", "ب", "€", "…", "🚀", "😀", "🧪", "𝔸"]
TIMEOUT = int(os.environ.get("FUZZ_TIMEOUT", "20"))


def fixtures(root):
    out = []
    for d, _, files in os.walk(os.path.join(root, "fixtures")):
        for f in files:
            p = os.path.join(d, f)
            if f.endswith(".json") and os.path.getsize(p) < 200_000:
                out.append(p)
    return sorted(out)


def labels(root):
    path = os.path.join(root, "tests", "fuzz", "labels.txt")
    with open(path, encoding="utf-8") as f:
        return [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]


def random_label(rng):
    """A label of 1 to 200 bytes of characters from POOL."""
    want, s = rng.randint(1, 200), ""
    while True:
        c = rng.choice(POOL)
        if len((s + c).encode()) > want:
            return s or "a"
        s += c


def json_string(s):
    return json.dumps(s, ensure_ascii=False)[1:-1]


def rename(text, rng, dictionary):
    """Names: with a chance, each to a label from the dictionary or random."""
    if rng.random() < 0.5:
        p = rng.choice([0.3, 1.0])
        text = NAME.sub(lambda m: m.group(1) + '"' + json_string(
            rng.choice(dictionary) if rng.random() < 0.5 else random_label(rng)) + '"'
            if rng.random() < p else m.group(0), text)
    return text


def mutate(text, rng):
    """Numbers: all of them to one value, or each with a chance to any."""
    mode, value = rng.random(), rng.choice(SPECIAL)
    if mode < 0.3:
        text = NUMBER.sub(lambda m: value, text)
    elif mode < 0.8:
        p = rng.choice([0.05, 0.2, 0.5])
        text = NUMBER.sub(lambda m: rng.choice(SPECIAL) if rng.random() < p else m.group(0), text)
    return text


def pages_not_utf8(work):
    """The first page the command wrote that does not decode as UTF-8, or None."""
    for d, _, files in os.walk(work):
        for f in files:
            if f.endswith((".html", ".md", ".svg")):
                try:
                    with open(os.path.join(d, f), encoding="utf-8") as fh:
                        fh.read()
                except UnicodeDecodeError:
                    return os.path.relpath(os.path.join(d, f), work)
    return None


def verdict(rc, err, pages):
    if rc == 124:
        return "hang"
    if re.search(r"AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer", err) or rc >= 128 or rc < 0:
        return "crash"
    if "not valid UTF-8" in err or (pages and pages_not_utf8(pages)):
        return "cut"
    return None


def run_mutant(perfdb, fixture, base_text, mutant_text, work):
    """Ingest the base (the fixture, renamed) and the mutant (its numbers
    changed too, so that compare and history set them side by side); draw
    everything. Yields (what, cmd, rc, stderr)."""
    env = dict(os.environ, PERFDB_DB=os.path.join(work, "db"), PERFDB_FINGERPRINT="off",
               TZ="UTC", LC_ALL="C.UTF-8", SOURCE_DATE_EPOCH="1764000000",
               ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    ext = os.path.splitext(fixture)[1]
    base, mutant = os.path.join(work, "base" + ext), os.path.join(work, "mutant" + ext)
    for path, text in ((base, base_text), (mutant, mutant_text)):
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)

    def run(args):
        """perfdb args under timeout(1): status 124 when it ran out."""
        try:
            p = subprocess.run(["timeout", str(TIMEOUT), perfdb] + args, cwd=work, env=env,
                               capture_output=True, timeout=TIMEOUT + 10)
            return p.returncode, p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            return 124, "timeout\n"

    rc, err = run(["ingest", base, "-n", "base", "--force"])
    yield "ingest base", ["ingest", "base"], rc, err
    rc, err = run(["ingest", mutant, "-n", "mut", "--force"])
    yield "ingest", ["ingest", "mutant"], rc, err
    if rc != 0:
        return
    for args in (["plot", "latency", "mut", "-o", "l.png"],
                 ["plot", "history", "-o", "h.png"],
                 ["plot", "scaling", "mut", "-o", "s.png"],
                 ["plot", "compare", "base", "mut", "-o", "c.png"],
                 ["report", "mut", "--baseline", "base", "-o", "rep"],
                 ["site", "-o", "site"]):
        rc, err = run(args)
        yield " ".join(args[:2]), args, rc, err


def main():
    perfdb, out, seconds = os.path.abspath(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else int(time.time())
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rng, files, dictionary = random.Random(seed), fixtures(root), labels(root)
    counts = {"mutants": 0, "rejected": 0, "runs": 0, "crash": 0, "hang": 0, "cut": 0}
    kinds = {}
    os.makedirs(os.path.join(out, "crashes"), exist_ok=True)
    os.makedirs(os.path.join(out, "hangs"), exist_ok=True)
    os.makedirs(os.path.join(out, "cuts"), exist_ok=True)
    end = time.time() + seconds
    while time.time() < end:
        fixture = rng.choice(files)
        with open(fixture, encoding="utf-8", errors="surrogateescape") as f:
            base_text = rename(f.read(), rng, dictionary)
        text = mutate(base_text, rng)
        counts["mutants"] += 1
        work = tempfile.mkdtemp(prefix="values-")
        try:
            for what, args, rc, err in run_mutant(perfdb, fixture, base_text, text, work):
                if what == "ingest" and rc != 0:
                    counts["rejected"] += 1
                if not what.startswith("ingest"):
                    counts["runs"] += 1
                # the pages of report and site: their -o folder
                pages = os.path.join(work, args[-1]) if what.split()[0] in ("report", "site") else None
                v = verdict(rc, err, pages)
                if not v:
                    continue
                counts[v] += 1
                kinds[(v, what)] = kinds.get((v, what), 0) + 1
                n = counts[v]
                keep = os.path.join(out, {"crash": "crashes", "hang": "hangs", "cut": "cuts"}[v],
                                    "%d-%d" % (seed, n))
                os.makedirs(keep, exist_ok=True)
                for f in os.listdir(work):
                    if f.startswith(("mutant", "base")):
                        shutil.copy(os.path.join(work, f), keep)
                with open(os.path.join(keep, "what"), "w") as f:
                    f.write("fixture %s\ncommand perfdb %s\nstatus %d\n%s" % (
                        os.path.relpath(fixture, root), " ".join(args), rc, err[-6000:]))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print("values: seed %d: %d mutants (%d refused by ingest), %d chart runs: %d crash(es), "
          "%d hang(s), %d cut(s)" % (seed, counts["mutants"], counts["rejected"], counts["runs"],
                                     counts["crash"], counts["hang"], counts["cut"]))
    for (v, what), n in sorted(kinds.items()):
        print("  %s in %s: %d" % (v, what, n))
    return 1 if counts["crash"] or counts["hang"] or counts["cut"] else 0


if __name__ == "__main__":
    sys.exit(main())
