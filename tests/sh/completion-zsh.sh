#!/bin/sh
# The zsh completion (perfdb --generate complete-zsh) in a real interactive
# zsh with compinit, typed into through tmux as a person would: Tab after
# "perfdb co" gives "perfdb compare", run selectors come from the --db named,
# options and their values complete. The tmux server is this test's own
# (its own socket) and is stopped at the end.
: "${PERFDB:?}" "${FIXTURES:=${ROOT:?}/fixtures}"
command -v zsh >/dev/null && command -v tmux >/dev/null || { echo "no zsh or tmux"; exit 77; }
work=$(mktemp -d) || exit 1
sock="perfdb-zsh-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/fpath"
ln -s "$PERFDB" "$work/bin/perfdb"
"$PERFDB" --generate complete-zsh >"$work/fpath/_perfdb" || { echo "FAIL: --generate complete-zsh"; exit 1; }
export PERFDB_FINGERPRINT=off
"$PERFDB" --db "$work/runs.db" ingest -n nightly "$FIXTURES/hyperfine/hyperfine-1.15-P-sleep.json" >/dev/null &&
  "$PERFDB" --db "$work/runs.db" ingest "$FIXTURES/hyperfine/hyperfine-1.15-P-sleep.json" --force >/dev/null ||
  { echo "FAIL: ingest"; exit 1; }
cat >"$work/.zshrc" <<ZSH
fpath=("$work/fpath" \$fpath)
PATH="$work/bin:\$PATH"
autoload -U compinit && compinit -u -d "$work/zcompdump"
PS1='ready> '
ZSH
cd "$work" || exit 1
ZDOTDIR="$work" tmux -L "$sock" -f /dev/null new-session -d -x 160 -y 40 "zsh -i" ||
  { echo "FAIL: tmux"; exit 1; }
fail=0
# type WORDS then Tab; expect TEXT on the screen within 10 s; then clear the line
tab_shows() {
  text=$1 line=$2
  tmux -L "$sock" send-keys -l "$line" && tmux -L "$sock" send-keys Tab
  i=0
  while [ $i -lt 100 ]; do
    tmux -L "$sock" capture-pane -p >"$work/screen"
    grep -qF -- "$text" "$work/screen" && break
    sleep 0.1; i=$((i + 1))
  done
  grep -qF -- "$text" "$work/screen" || { echo "FAIL: '$line<Tab>': no '$text' on:"; cat "$work/screen"; fail=1; }
  tmux -L "$sock" send-keys C-c && tmux -L "$sock" send-keys clear Enter
  sleep 0.3
}
# the prompt first: zsh has read .zshrc
tab_shows 'ready>' ''
tab_shows 'ready> perfdb compare' 'perfdb co'
tab_shows '--threshold' 'perfdb compare --thr'
tab_shows 'markdown' 'perfdb compare --format '
# hyperfine and hyperfine-csv: the first Tab inserts what they share
tab_shows 'ready> perfdb ingest --format hyperfine' 'perfdb ingest --format hyp'
tab_shows 'run2' "perfdb --db $work/runs.db compare run1 "
tab_shows 'nightly' "perfdb --db=$work/runs.db show "
[ $fail = 0 ] && echo "completion-zsh: commands, options, values and runs complete in zsh"
exit $fail
