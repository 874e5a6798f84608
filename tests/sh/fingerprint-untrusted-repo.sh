#!/bin/sh
# Ingesting inside an untrusted checkout must not run its configured programs:
# a core.fsmonitor hook that would leave a marker file stays unrun, and the
# commit, branch and dirtiness are still recorded.
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
command -v git >/dev/null || { echo "git is missing"; exit 77; }
cd "$work" || exit 1
git init -q repo && cd repo || exit 1
git config user.email t@example.com && git config user.name t
printf '#!/bin/sh\ntouch "%s/marker"\nexit 1\n' "$work" > "$work/hook" && chmod +x "$work/hook"
echo a > file && git add file && git commit -qm one && echo b > file
git config core.fsmonitor "$work/hook"   # from here on, any git status would run it
unset PERFDB_FINGERPRINT
"$PERFDB" --db "$work/p.db" ingest --format hyperfine "$ROOT/fixtures/hyperfine/export-both/sleep.json" >/dev/null || exit 1
if [ -e "$work/marker" ]; then echo "the repository's fsmonitor hook ran"; exit 1; fi
dirty=$("$PERFDB" --db "$work/p.db" show run1 --format json | grep '"dirty"')
case $dirty in *true*) ;; *) echo "dirty not recorded: $dirty"; exit 1;; esac
echo "no hook ran; dirty recorded"
