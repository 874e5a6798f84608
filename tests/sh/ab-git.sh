#!/bin/sh
# The git=REV shortcut of A/B runs: in a throw-away repository of a small C
# program whose second commit does 10 % more work, `perfdb run spec
# --variant base:git=HEAD~1 --compare` checks HEAD~1 out into a temporary
# worktree, builds both there and in the current checkout, and, adding
# pairs until the comparison is conclusive (repeat: auto), exits 1 with a
# regression even beside a busy neighbour; each run records its commit. An unknown REV is a one-line error
# (exit 2), a failing build stops with its last lines (exit 4) before
# anything is measured, Ctrl-C stores both runs as interrupted (exit 130):
# no worktree is ever left behind, and no hook of the repository runs; the
# fingerprint's branch and dirtiness are each variant's own checkout's.
# Finding the 10 % is a timing: make check wants a verdict (exit 0 or 1),
# make bench (BENCH_BOUNDS=1, tests/bench/bench-ab-git-verdict.sh) exit 1.
: "${PERFDB:?}"
command -v cc >/dev/null || { echo "no cc: skipped"; exit 77; }
command -v git >/dev/null || { echo "no git: skipped"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off TMPDIR="$work/tmp"
mkdir "$work/tmp" "$work/repo" && cd "$work/repo" || exit 1
git init -q && git config user.email t@example.com && git config user.name t || exit 1
cat > spin.c <<'C'
/* a fixed amount of work: LOOPS additions the compiler cannot drop */
int main(void)
{
	volatile unsigned long sum = 0;
	for (unsigned long i = 0; i < LOOPS; i++)
		sum += i;
	return sum == 1;
}
C
echo 12000000UL > loops && git add spin.c loops && git commit -qm base &&
echo 13200000UL > loops && git commit -qam 'ten per cent more work' || exit 1
base_sha=$(git rev-parse HEAD~1) cand_sha=$(git rev-parse HEAD)
# programs the repository configures must not run: a checkout hook, an fsmonitor
printf '#!/bin/sh\ntouch "%s/marker"\n' "$work" > "$work/hook" && chmod +x "$work/hook" &&
cp "$work/hook" .git/hooks/post-checkout && git config core.fsmonitor "$work/hook" || exit 1
cat > "$work/spec.yaml" <<'YAML'
build: 'cc -O1 -DLOOPS=$(cat loops) -o "{dir}/spin" spin.c'
warmup: 1
repeat: auto
max_repeat: 300
budget: 120
benchmarks:
  - name: spin
    command: ["{dir}/spin"]
YAML
fail=0
# what must hold after every run: the repository's one worktree, no temporary folder
clean() {
	trees=$(git worktree list | wc -l) left=$(ls "$TMPDIR")
	[ "$trees" = 1 ] && [ -z "$left" ] || { echo "FAIL: $1 left $trees worktrees, $TMPDIR: $left"; git worktree list; fail=1; }
}
attr() { sqlite3 "$PERFDB_DB" "SELECT value FROM run_attrs WHERE run_id = $1 AND key = '$2'"; }

"$PERFDB" run "$work/spec.yaml" --variant base:git=HEAD~1 --compare --format csv >"$work/out" 2>"$work/err"
status=$?
verdict=$(awk -F, '$1 == "spin" && $3 ~ /^(wall|user)_time$/ { printf "%s%s %s, change %s %%", sep, $3, $18, $12; sep = "; " }' "$work/out")
ended=$(sed -n 's/^perfdb: run: adaptive: ended at //p' "$work/err")
echo "HEAD~1 against the current checkout (10 % more work): exit $status, $verdict; ended at $ended"
# finding the 10 % is a timing, which a loaded machine can miss: bounded
# with BENCH_BOUNDS=1 (make bench); make check wants a verdict, exit 0 or 1
case $status:$verdict in
1:*regression*) ;;
[01]:?*) if [ "${BENCH_BOUNDS:-0}" = 1 ]; then
	  echo "FAIL: expected exit 1 and a regression"; cat "$work/out" "$work/err"; fail=1
	else echo "(not found a regression on this machine now: make bench checks that)"; fi ;;
*) echo "FAIL: expected exit 1 and a regression"; cat "$work/out" "$work/err"; fail=1 ;;
esac
got="$(attr 1 variant) $(attr 1 commit) $(attr 1 git_rev); $(attr 2 variant) $(attr 2 commit) $(attr 2 git_rev)"
want="base $base_sha HEAD~1; cand $cand_sha "
echo "attributes: $got"
[ "$got" = "$want" ] || { echo "FAIL: expected $want"; fail=1; }
grep -q "building base (HEAD~1, $(echo "$base_sha" | cut -c1-12)) in $TMPDIR/perfdb-ab-" "$work/err" ||
	{ echo "FAIL: base not built in a worktree under $TMPDIR"; cat "$work/err"; fail=1; }
clean "a run"

"$PERFDB" run "$work/spec.yaml" --variant base:git=no-such-rev >"$work/out" 2>"$work/err"
status=$?
echo "unknown REV: exit $status: $(cat "$work/err")"
[ $status = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && [ "$(cat "$work/err")" = \
	"perfdb: run: variant 'base': git: 'no-such-rev' names no commit here" ] ||
	{ echo "FAIL: expected exit 2 and one line"; fail=1; }
clean "an unknown REV"

sed 's/^build: .*/build: "cc -o spin no-such-file.c"/' "$work/spec.yaml" >"$work/broken.yaml"
"$PERFDB" run "$work/broken.yaml" --variant base:git=HEAD~1 >"$work/out" 2>"$work/err"
status=$?
runs=$(sqlite3 "$PERFDB_DB" "SELECT count(*) FROM runs")
echo "failing build: exit $status, $runs runs stored (2 before), $(grep -c 'no-such-file.c' "$work/err") lines naming the file"
[ $status = 4 ] && [ "$runs" = 2 ] && grep -q "the build of base (HEAD~1, .*) failed with exit status 1; its last lines:" "$work/err" &&
	grep -q "no-such-file.c" "$work/err" || { echo "FAIL: expected exit 4, nothing stored, the build's last lines"; cat "$work/err"; fail=1; }
clean "a failing build"

cat > "$work/nap.yaml" <<'YAML'
build: "true"
repeat: 50
benchmarks:
  - name: nap
    command: "sleep 0.1"
YAML
# with the fingerprint on, each run's branch and dirtiness are its own checkout's
echo "/* uncommitted */" >> spin.c
branch=$(git rev-parse --abbrev-ref HEAD)
PERFDB_FINGERPRINT=on "$PERFDB" run "$work/nap.yaml" --variant base:git=HEAD~1 >"$work/out" 2>"$work/err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid; status=$?
states=$(sqlite3 "$PERFDB_DB" "SELECT group_concat(status, ' ') FROM runs WHERE id > 2 ORDER BY id")
echo "Ctrl-C: exit $status, runs $states"
[ $status = 130 ] && [ "$states" = "interrupted interrupted" ] || { echo "FAIL: expected exit 130 and both runs interrupted"; cat "$work/err"; fail=1; }
clean "Ctrl-C"
# HEAD~1 is checked out detached: on no branch, so none is recorded (a
# branch "HEAD" made detect read two identical builds as a -48 % change)
got="$(attr 3 branch) $(attr 3 dirty); $(attr 4 branch) $(attr 4 dirty)" want=" false; $branch true"
echo "fingerprint: base $(attr 3 branch), dirty $(attr 3 dirty); cand $(attr 4 branch), dirty $(attr 4 dirty)"
[ "$got" = "$want" ] || { echo "FAIL: expected $want"; fail=1; }
[ ! -e "$work/marker" ] || { echo "FAIL: the repository's hook ran"; fail=1; }

# a git variant records the branch only when REV is a branch's name: not
# for a tag or an expression (the fingerprint is off: the variant's own)
git stash -q && git tag v-base HEAD~1 || { echo "FAIL: no tag"; fail=1; }
sed -i 's/repeat: 50/repeat: 1/; s/sleep 0.1/true/' "$work/nap.yaml"
"$PERFDB" run "$work/nap.yaml" --variant base:git=v-base --variant "cand:git=$branch" >/dev/null 2>"$work/err" ||
	{ echo "FAIL: the tag and branch run"; cat "$work/err"; fail=1; }
"$PERFDB" run "$work/nap.yaml" --variant base:git=HEAD~1 --variant cand:git=HEAD >/dev/null 2>"$work/err" ||
	{ echo "FAIL: the HEAD run"; cat "$work/err"; fail=1; }
got="$(attr 5 branch),$(attr 6 branch),$(attr 7 branch),$(attr 8 branch)" want=",$branch,,"
echo "branches of git=v-base, git=$branch, git=HEAD~1, git=HEAD: $got"
[ "$got" = "$want" ] || { echo "FAIL: expected $want"; fail=1; }
exit $fail
