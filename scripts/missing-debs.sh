#!/bin/sh
# The Debian packages, of those named, whose library the build cannot find:
# printed on one line, nothing when all are there. Each argument is
# NAME=PACKAGE: NAME a pkg-config name, or a header (NAME.h) the compiler
# $CC must find. Usage: missing-debs.sh sqlite3=libsqlite3-dev csv.h=libcsv-dev ...
# (the Makefile's check before it compiles; make deps installs them)
missing=""
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"
for arg in "$@"; do
  name=${arg%%=*} deb=${arg#*=}
  case $name in
    *.h) printf '#include <%s>\n' "$name" | ${CC:-cc} -E -x c - >/dev/null 2>&1 ;;
    *) pkg-config --exists "$name" 2>/dev/null ;;
  esac || missing="$missing $deb"
done
echo $missing
