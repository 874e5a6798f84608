#!/bin/sh
# The bash completion (perfdb --generate complete-bash), driven as bash
# drives it: COMP_WORDS and COMP_CWORD set, _perfdb called, COMPREPLY read.
# Commands, a command's options, an option's values (choices, ingest's
# formats from the registry), run selectors from the --db named, plot's
# kinds, and complete -p naming it for perfdb.
: "${PERFDB:?}" "${FIXTURES:=${ROOT:?}/fixtures}"
command -v bash >/dev/null || { echo "no bash"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$PERFDB" "$work/bin/perfdb"
"$PERFDB" --generate complete-bash >"$work/perfdb.bash" || { echo "FAIL: --generate complete-bash"; exit 1; }
export PERFDB_FINGERPRINT=off PERFDB_DB="$work/none.db"
"$PERFDB" --db "$work/runs.db" ingest -n nightly "$FIXTURES/hyperfine/hyperfine-1.15-P-sleep.json" >/dev/null &&
  "$PERFDB" --db "$work/runs.db" ingest "$FIXTURES/hyperfine/hyperfine-1.15-P-sleep.json" --force >/dev/null ||
  { echo "FAIL: ingest"; exit 1; }
fail=0
# complete WORDS... (the last is the word completed): COMPREPLY, sorted, one line
complete_words() {
  PATH="$work/bin:$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _perfdb; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' sh "$work/perfdb.bash" "$@"
}
expect() {
  want=$1; shift
  got=$(complete_words "$@")
  case " $got" in
    *" $want "*) ;;
    *) echo "FAIL: '$*': expected $want in: $got"; fail=1;;
  esac
}
expect_not() {
  unwanted=$1; shift
  got=$(complete_words "$@")
  case " $got" in *" $unwanted "*) echo "FAIL: '$*': $unwanted in: $got"; fail=1;; esac
}
[ "$(complete_words perfdb co)" = "compare " ] || { echo "FAIL: perfdb co: $(complete_words perfdb co)"; fail=1; }
expect mock-kafka perfdb m
expect compare perfdb help co
expect --threshold perfdb compare --thr
expect --cand-last perfdb compare --ca
expect_not --keep-last perfdb compare --
expect markdown perfdb compare --format ''
expect junit perfdb compare -F ''
expect json perfdb runs --format = j   # bash splits --format=j at '='
expect text perfdb runs --format = ''
expect hyperfine perfdb ingest --format hyp
expect hyperfine-csv perfdb ingest -f hyp
expect --version perfdb --ver
expect nightly perfdb --db "$work/runs.db" show ''
expect run2 perfdb --db "$work/runs.db" compare run1 ''
# --db=FILE: bash splits it into three words (COMP_WORDBREAKS has '='), else one
expect run2 perfdb --db = "$work/runs.db" compare run1 ''
expect run2 perfdb "--db=$work/runs.db" compare run1 ''
expect --threshold perfdb --db = "$work/runs.db" compare --thr
expect latest perfdb show --db "$work/runs.db" l
expect run1 perfdb report latest --baseline --db "$work/runs.db" r
expect_not run1 perfdb show ''
expect history perfdb plot h
expect nightly perfdb --db "$work/runs.db" plot history ''
expect_not history perfdb --db "$work/runs.db" plot history ''
expect dark perfdb plot --theme ''
# a value that takes no completion is not an operand: no run offered after --limit
expect_not latest perfdb --db "$work/runs.db" runs --limit ''
spec=$(PATH="$work/bin:$PATH" bash -c '. "$1"; complete -p perfdb' sh "$work/perfdb.bash")
case $spec in *"-F _perfdb"*" perfdb") ;; *) echo "FAIL: complete -p perfdb: $spec"; fail=1;; esac
[ $fail = 0 ] && echo "completion: commands, options, values, formats, runs and kinds as expected"
exit $fail
