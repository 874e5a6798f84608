#!/bin/sh
# make-seeds.sh OUT: write the seeds of the hostile inputs that found bugs
# (issue 31) into OUT/corpus/FAMILY/, made here rather than kept as files:
# gzip bombs (one level and nested: ingest's ratio and size bounds), XML
# entity expansion (billion laughs, one big entity in attributes), labels of
# 1-200 bytes of mixed UTF-8 (tests/fuzz/labels.txt) as benchmark names, keys
# and CSV columns given twice, two YAML documents, one benchmark given twice.
# A symlink loop is a folder, not bytes: tests/cases/ingest-dir-links walks one.
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -n "$out" ] || { echo "usage: make-seeds.sh OUT"; exit 2; }
for fam in json csv xml yaml canonical spec; do mkdir -p "$out/corpus/$fam"; done
j=$out/corpus/json c=$out/corpus/csv x=$out/corpus/xml y=$out/corpus/yaml

# gzip bombs: 64 MiB of zeros in about 64 KiB, and nested (gzip of a gzip)
head -c 67108864 /dev/zero | gzip -9 > "$j/bomb-zeros.gz"
head -c 67108864 /dev/zero | gzip -9 | gzip -9 > "$j/bomb-nested.gz"
cp "$j/bomb-nested.gz" "$c/bomb-nested.gz"
# a hyperfine JSON of 10 MB: past the fuzz bound of 8 MiB (fuzz_common.h), so
# refused at the bound; at 8 MB its 4M samples were stored, past the
# fuzzer's 10 s timeout under the sanitizers
{ printf '{"results":[{"command":"x","times":['; head -c 5000000 /dev/zero | tr '\0' '1' | sed 's/1/1,/g'
  printf '1]}]}'; } | gzip -9 > "$j/bomb-hyperfine.gz"

# XML entity expansion: billion laughs, and one big entity referenced in attributes
{ echo '<?xml version="1.0"?>'
  echo '<!DOCTYPE Catch [<!ENTITY a "aaaaaaaaaa">'
  prev=a
  for e in b c d e f g h i; do echo "<!ENTITY $e \"&$prev;&$prev;&$prev;&$prev;&$prev;&$prev;&$prev;&$prev;&$prev;&$prev;\">"; prev=$e; done
  echo ']>'
  echo '<Catch name="&i;"><Group name="g"><TestCase name="&i;"><BenchmarkResults name="&h;" samples="1" resamples="1" iterations="1" clockResolution="1" estimatedDuration="1"><mean value="1" lowerBound="1" upperBound="1" ci="0.95"/></BenchmarkResults></TestCase></Group></Catch>'
} > "$x/entity-laughs.xml"
{ echo '<?xml version="1.0"?>'
  printf '<!DOCTYPE Catch [<!ENTITY big "'; head -c 30000 /dev/zero | tr '\0' 'x'; echo '">]>'
  printf '<Catch name="c"><Group name="g">'
  for i in 1 2 3 4 5 6 7 8; do printf '<TestCase name="&big;%s" filename="&big;"/>' $i; done
  echo '</Group></Catch>'
} > "$x/entity-attributes.xml"

# labels of mixed UTF-8 as hyperfine commands, Catch2 test names, CSV benchmarks
python3 - "$root/tests/fuzz/labels.txt" "$j" "$x" "$c" <<'PY'
import json, sys
labels = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8") if l.strip() and not l.startswith("#")]
res = [{"command": l, "mean": 0.01, "times": [0.01, 0.011, -0.0]} for l in labels]
json.dump({"results": res}, open(sys.argv[2] + "/labels-hyperfine.json", "w"), ensure_ascii=False)
from xml.sax.saxutils import quoteattr
with open(sys.argv[3] + "/labels-catch2.xml", "w", encoding="utf-8") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<Catch name="t"><Group name="g">')
    for l in labels:
        f.write('<TestCase name=%s><BenchmarkResults name=%s samples="1" resamples="1" iterations="1" '
                'clockResolution="1" estimatedDuration="1"><mean value="1" lowerBound="1" upperBound="1" '
                'ci="0.95"/></BenchmarkResults></TestCase>' % (quoteattr(l), quoteattr(l)))
    f.write('</Group></Catch>\n')
with open(sys.argv[4] + "/labels-hyperfine.csv", "w", encoding="utf-8") as f:
    f.write("command,mean,stddev,median,user,system,min,max\n")
    for l in labels:
        f.write('"%s",0.01,0,0.01,0,0,0.01,0.01\n' % l.replace('"', '""'))
PY

# keys and columns given twice, one benchmark twice, two YAML documents
printf '{"results":[{"command":"a","command":"b","times":[1,2],"times":[3]},{"command":"a","times":[4]}]}\n' > "$j/duplicate-keys.json"
printf '{"benchmarks":[{"name":"x","name":"y","real_time":1,"time_unit":"ns","iterations":1,"iterations":2}]}\n' > "$j/duplicate-keys-gbench.json"
printf 'command,mean,mean,median\nsleep,1,2,1\nsleep,1,2,1\n' > "$c/duplicate-column.csv"
printf 'command,mean,stddev,median,user,system,min,max\nx,1,0,1,0,0,1,1\nx,-1,0,1,0,0,-1,1\n' > "$c/same-command-twice.csv"
printf 'metrics:\n  - stressor: cpu\n    stressor: vm\n    bogo-ops: 1\n---\nmetrics:\n  - stressor: cpu\n    bogo-ops: 2\n' > "$y/two-documents.yaml"
cp "$j/duplicate-keys.json" "$out/corpus/canonical/duplicate-keys.json"
# a perfdb.yaml with every key of compare:, and a run spec with its keys given twice
cat > "$out/corpus/spec/perfdb.yaml" <<'Y'
compare:
  alpha: 0.01
  threshold: 5%
  warn: 2
  run_noise: 1%
  rules:
    - {benchmark: "parse/*", metric: wall_time, threshold: 10%, warn: 5%, direction: lower, gate: true}
    - {benchmark: "*", metric: "rss*", ignore: true}
  ignore: [flaky, "net/*"]
Y
printf 'repeat: 3\nrepeat: 5\nbenchmarks:\n  - {name: a, command: [true]}\n  - {name: a, command: "sleep 0"}\n' > "$out/corpus/spec/keys-twice.yaml"
