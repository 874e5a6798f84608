#!/bin/sh
# build: without git: variants (one spec for the push job and the A/B job):
# `perfdb run spec` builds once in the current checkout, the git top level
# even from a subfolder, where {dir} points; each run records HEAD's commit
# unless --attr gives one; --dry-run says where it builds. Outside a
# repository the current directory is built and named, and no commit is
# recorded. Two variants without git: share the one build. A failing build
# stops with its last lines (exit 4) and nothing is measured or stored.
: "${PERFDB:?}"
command -v git >/dev/null || { echo "no git: skipped"; exit 77; }
command -v make >/dev/null || { echo "no make: skipped"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off GIT_CEILING_DIRECTORIES="$work"
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$work/repo" "$work/repo/sub" "$work/plain" && cd "$work/repo" || exit 1
git init -q && git config user.email t@example.com && git config user.name t || exit 1
printf '.PHONY: app\napp:\n\tprintf "#!/bin/sh\\nexit 0\\n" > app && chmod +x app && echo built >> builds\n' > Makefile
git add Makefile && git commit -qm base || exit 1
sha=$(git rev-parse HEAD)
cat > "$work/spec.yaml" <<'YAML'
build: "make -s"
benchmarks:
  - {name: app, cwd: "{dir}", command: ["./app"], repeat: 2}
YAML
# the A/B job's: {x} is its variants' key
sed 's|"./app"|"./app", "{x}"|' "$work/spec.yaml" > "$work/ab.yaml"
cd sub || exit 1
out=$("$PERFDB" run "$work/spec.yaml" --dry-run) || fail "dry run: exit $?"
printf '%s\n' "$out" | grep -qx "checkout HEAD = $(echo "$sha" | cut -c1-12): the current checkout, {dir}; build: make -s" ||
	fail "dry run does not say where it builds: $out"
[ ! -e ../app ] || fail "--dry-run built"
"$PERFDB" run "$work/spec.yaml" --name here >/dev/null 2>"$work/err" || fail "run: exit $?: $(cat "$work/err")"
[ -x ../app ] || fail "not built at the top level"
grep -qx "perfdb: run: building HEAD ($(echo "$sha" | cut -c1-12)) in $work/repo" "$work/err" ||
	fail "no building line: $(cat "$work/err")"
[ "$("$PERFDB" export here | sed -n 2p | cut -d, -f5)" = "$sha" ] || fail "commit not recorded"
"$PERFDB" run "$work/spec.yaml" --name given --attr commit=abc >/dev/null 2>&1 || fail "run --attr: exit $?"
[ "$("$PERFDB" export given | sed -n 2p | cut -d, -f5)" = abc ] || fail "--attr commit overridden"
# two variants without git: one build for both
"$PERFDB" run "$work/ab.yaml" --name ab --variant base:x=1 --variant cand:x=2 >/dev/null 2>"$work/err" ||
	fail "A/B run: exit $?: $(cat "$work/err")"
[ "$(grep -c '^perfdb: run: building' "$work/err")" = 1 ] || fail "A/B: not one build: $(cat "$work/err")"
[ "$(wc -l < ../builds)" = 3 ] || fail "builds: $(cat ../builds)"
# outside a repository: the current directory, no commit
cd "$work/plain" && cp ../repo/Makefile . || exit 1
"$PERFDB" run "$work/spec.yaml" --name plain >/dev/null 2>"$work/err" || fail "plain: exit $?: $(cat "$work/err")"
grep -qx "perfdb: run: building in $work/plain" "$work/err" || fail "plain: $(cat "$work/err")"
[ -x app ] || fail "plain: not built here"
[ -z "$("$PERFDB" export plain | sed -n 2p | cut -d, -f5)" ] || fail "plain: a commit recorded"
# a failing build: exit 4, its last lines, nothing stored
printf '.PHONY: app\napp:\n\techo no compiler here >&2; exit 2\n' > Makefile
runs=$("$PERFDB" runs | wc -l)
"$PERFDB" run "$work/spec.yaml" --name broken >/dev/null 2>"$work/err"; rc=$?
[ $rc = 4 ] || fail "broken build: exit $rc"
grep -q "the build of the current directory $work/plain failed with exit status 2; its last lines:.*no compiler here" "$work/err" ||
	fail "broken build: $(cat "$work/err")"
grep -q "rep" "$work/err" && fail "broken build: something was measured"
[ "$("$PERFDB" runs | wc -l)" = "$runs" ] || fail "broken build: a run was stored"
echo "ok"
