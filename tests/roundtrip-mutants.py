#!/usr/bin/python3
# The round trip of every accepted input, on seeded mutations of real files:
# every file of fixtures/ (and ../shared/corpus when present) that perfdb
# ingests (by detection, or with a MAP.yaml of its folder) is mutated N times
# (byte flips, truncations, number edits, unicode in names, lines dropped or
# doubled); each mutant is ingested into a fresh database, and when perfdb
# accepts it, `show --format json` (A) is ingested into a second fresh database
# and shown again (B); both are shown with `export` and `export --stats` too
# (which print the stored values, so a value lost on the way to A shows there).
# A and B must be the same bytes: uuid, created_at, source and sha256 travel in
# the canonical form, and the id is run1 in both fresh databases, so nothing
# may differ. A refused mutant is fine (that is the parsers' job); a refused A,
# or B != A, is a failure.
# Usage: roundtrip-mutants.py PERFDB ROOT [MUTANTS_PER_FILE [SEED [EVERY]]]
#   EVERY N: only every Nth file (in walk order, from the SEED-th modulo N).
# Prints one line per failure (KEEP=DIR keeps the failing mutants there) and
# "roundtrip: N mutants of N files, N accepted, N failed"; exit 1 on a failure.
import hashlib, os, random, re, shutil, subprocess, sys, tempfile

perfdb, root = sys.argv[1], sys.argv[2]
per_file = int(sys.argv[3]) if len(sys.argv) > 3 else 8
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 21
rng = random.Random(seed)
every = int(sys.argv[5]) if len(sys.argv) > 5 else 1
keep = os.environ.get("KEEP")
env = dict(os.environ, PERFDB_FINGERPRINT="off", TZ="UTC")
work = tempfile.mkdtemp()

NUMBERS = [b"1e308", b"-1e308", b"1.7976931348623157e308", b"1.8e308", b"-0", b"-0.0",
           b"5e-324", b"4e-324", b"2.2250738585072014e-308", b"1e-400", b"1e400",
           b"1e999999999", b"-1e999", b"9007199254740993", b"18446744073709551617",
           b"123456789012345678901234567890", b"0.1", b"0", b"NaN", b"inf",
           b"-Infinity", b"Infinity", b"0x10", b"1e", b"+1", b".5", b"5.", b"1_0", b"007"]
NAMES = [b"\\u00e9", b"\\ud83d\\ude00", b"\\u0000", b"\\ud800", b"\\udc00", b"\\u001b[31m",
         b"\\u2028", b"\\\\", b"\\\"", "é".encode(), "µs".encode(), b"\xff", b"\xc3",
         b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x1b[2J", b"\r", b"\t",
         b"\"", b",", b";", b"\n", b" ", b"{}", b"=", b"~2"]
NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
STRING = re.compile(rb"\"[^\"\\\n]{1,60}\"|[A-Za-z_][A-Za-z0-9_./-]{1,40}")


def run(args, out=None):
    with open(out or os.devnull, "wb") as f:
        return subprocess.run([perfdb, *args], stdout=f, stderr=subprocess.PIPE,
                              env=env, cwd=work).returncode


def ingest(path, db, args=()):
    if os.path.exists(db):
        os.unlink(db)
    return run(["--db", db, "ingest", *args, path]) == 0


def show(db, out):
    """show --format json, then export's samples and stats (whose values are
    printed from the stored run, not from A) into out."""
    return (run(["--db", db, "show", "--format", "json", "run1"], out) == 0 and
            run(["--db", db, "export", "run1", "-o", out + ".samples"]) == 0 and
            run(["--db", db, "export", "run1", "--stats", "-o", out + ".stats"]) == 0)


def text(out):
    return b"\n".join(open(out + ext, "rb").read() for ext in ("", ".samples", ".stats"))


def mutate(data):
    """One seeded mutation of data: (description, bytes)."""
    kind = rng.choice(["flip", "byte", "truncate", "number", "number", "name", "name", "line"])
    if kind == "flip" and data:
        i = rng.randrange(len(data))
        return f"bit flip at byte {i}", data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]
    if kind == "byte" and data:
        i, b = rng.randrange(len(data)), rng.randrange(256)
        return f"byte {i} = {b:#04x}", data[:i] + bytes([b]) + data[i + 1:]
    if kind == "number":
        found = list(NUMBER.finditer(data))
        if found:
            m, new = rng.choice(found), rng.choice(NUMBERS)
            return f"number at byte {m.start()} {m.group()!r} -> {new!r}", data[:m.start()] + new + data[m.end():]
    if kind == "name":
        found = list(STRING.finditer(data))
        if found:
            m, new = rng.choice(found), rng.choice(NAMES)
            i = rng.randrange(m.start() + 1, m.end())
            return f"{new!r} inserted at byte {i}", data[:i] + new + data[i:]
    if kind == "line":
        lines = data.split(b"\n")
        i = rng.randrange(len(lines))
        if rng.random() < 0.5:
            return f"line {i + 1} dropped", b"\n".join(lines[:i] + lines[i + 1:])
        return f"line {i + 1} doubled", b"\n".join(lines[:i + 1] + lines[i:])
    i = rng.randrange(len(data) + 1)
    return f"truncated at byte {i}", data[:i]


walked = [0]  # files walked so far, for EVERY

def seeds():
    """(path, ingest args) of every file perfdb ingests, directly or with a map of its folder."""
    dirs = [os.path.join(root, "fixtures"), os.path.join(root, "..", "shared", "corpus")]
    for top in dirs:
        for base, subdirs, files in sorted(os.walk(top)):
            subdirs.sort()
            maps = [os.path.join(base, f) for f in sorted(files) if f.endswith(".yaml")
                    and re.search(rb"(?m)^input:", open(os.path.join(base, f), "rb").read())]
            for f in sorted(files):
                path = os.path.join(base, f)
                if os.path.getsize(path) > 200_000 or path in maps:
                    continue
                walked[0] += 1
                if (walked[0] + seed) % every:
                    continue
                for args in [()] + [("--map", m) for m in maps]:
                    if ingest(path, os.path.join(work, "seed.db"), args):
                        yield path, args
                        break


failed = mutants = accepted = files = 0
seen = set()
for path, args in seeds():
    files += 1
    data = open(path, "rb").read()
    for _ in range(per_file):
        what, mutant = mutate(data)
        digest = hashlib.sha256(mutant).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        mutants += 1
        name = os.path.join(work, os.path.basename(path))
        with open(name, "wb") as f:
            f.write(mutant)
        a, b = os.path.join(work, "a.json"), os.path.join(work, "b.json")
        if not ingest(name, os.path.join(work, "1.db"), args):
            continue
        accepted += 1
        if not show(os.path.join(work, "1.db"), a):
            problem = "show of the accepted run failed"
        elif not ingest(a, os.path.join(work, "2.db")):
            problem = "its canonical JSON is refused: " + subprocess.run(
                [perfdb, "--db", os.path.join(work, "3.db"), "ingest", a], capture_output=True,
                env=env, cwd=work).stderr.decode(errors="replace").strip()
        elif not show(os.path.join(work, "2.db"), b):
            problem = "show of the re-ingested run failed"
        elif text(a) != text(b):
            la, lb = text(a).split(b"\n"), text(b).split(b"\n")
            n = next(i for i in range(max(len(la), len(lb)))
                     if i >= len(la) or i >= len(lb) or la[i] != lb[i])
            problem = f"re-ingest differs at line {n + 1}: {la[n] if n < len(la) else b''!r} -> {lb[n] if n < len(lb) else b''!r}"
        else:
            continue
        failed += 1
        rel = os.path.relpath(path, root)
        print(f"FAIL {rel} ({what}){' ' + ' '.join(args) if args else ''}: {problem}")
        if keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copy(name, os.path.join(keep, f"{digest[:12]}-{os.path.basename(path)}"))
shutil.rmtree(work)
print(f"roundtrip: {mutants} mutants of {files} files, {accepted} accepted, {failed} failed")
sys.exit(1 if failed else 0)
