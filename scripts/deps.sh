#!/bin/sh
# Install the Debian packages named on the command line that are not installed yet.
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "perfdb: installing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then SUDO=""
elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"
else
  echo "perfdb: need root or sudo to run: apt-get install -y$missing" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq $missing || {
  echo "perfdb: could not install:$missing (run: apt-get install -y$missing)" >&2; exit 1; }
