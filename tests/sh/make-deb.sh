#!/bin/sh
# make deb (scripts/make-deb.sh): the package's Depends, from
# dpkg-shlibdeps, name the libraries perfdb is linked to (cairo, libxml2,
# librdkafka, SQLite...) and the fonts the charts read; it holds the binary,
# the man pages and the completions under /usr; extracted, its binary runs
# and finds every library it needs.
: "${PERFDB:?}" "${BUILD:?}" "${ROOT:?}"
for tool in make dpkg dpkg-deb dpkg-shlibdeps ldd; do
  command -v $tool >/dev/null || { echo "no $tool"; exit 77; }
done
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
# a make of its own, not a sub-make of make check's
unset MAKEFLAGS MFLAGS MAKELEVEL
deb=$(make -s -C "$ROOT" BUILD="$BUILD" DEBDIR="$work" deb 2>"$work/err") || {
  echo "FAIL: make deb"; cat "$work/err"; exit 1; }
[ -s "$work/err" ] && { echo "FAIL: make deb said:"; cat "$work/err"; fail=1; }
[ -f "$deb" ] || { echo "FAIL: make deb printed no package: $deb"; exit 1; }
depends=$(dpkg-deb -f "$deb" Depends)
for p in libc6 libcairo2 libxml2 librdkafka1 libsqlite3-0 libjansson4 libyaml-0-2 libcsv3 fonts-dejavu-core; do
  echo ", $depends," | grep -q ", $p[ ,]" || { echo "FAIL: Depends lacks $p: $depends"; fail=1; }
done
dpkg-deb -c "$deb" | awk '{ print $NF }' >"$work/files"
for f in ./usr/bin/perfdb ./usr/share/man/man1/perfdb.1 ./usr/share/man/man1/perfdb-compare.1 \
         ./usr/share/man/man7/perfdb-formats.7 ./usr/share/bash-completion/completions/perfdb \
         ./usr/share/zsh/site-functions/_perfdb; do
  grep -qx -- "$f" "$work/files" || { echo "FAIL: the package lacks $f"; fail=1; }
done
dpkg -x "$deb" "$work/root" || { echo "FAIL: dpkg -x"; exit 1; }
[ "$("$work/root/usr/bin/perfdb" --version)" = "$("$PERFDB" --version)" ] ||
  { echo "FAIL: the packaged binary's --version differs"; fail=1; }
ldd "$work/root/usr/bin/perfdb" >"$work/ldd"
grep 'not found' "$work/ldd" && { echo "FAIL: a library is not found"; fail=1; }
for lib in libcairo.so libxml2.so librdkafka.so libsqlite3.so; do
  grep -q "$lib" "$work/ldd" || { echo "FAIL: ldd does not list $lib"; fail=1; }
done
[ $fail = 0 ] && echo "$(basename "$deb"): Depends $depends"
exit $fail
