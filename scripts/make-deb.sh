#!/bin/sh
# make deb: the Debian package of what make install puts under /usr, which
# the Makefile has staged in DIR/debian/perfdb. Its Depends are what
# dpkg-shlibdeps reads in the binary (each library it is linked to, at the
# version its symbols need) and the fonts the charts read from their files.
# Writes DIR/perfdb_VERSION_ARCH.deb and prints its path.
# Usage: make-deb.sh DIR MAINTAINER
dir=${1:?usage: make-deb.sh DIR MAINTAINER} maintainer=${2:?usage: make-deb.sh DIR MAINTAINER}
root=$dir/debian/perfdb
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v $tool >/dev/null 2>&1 || { echo "make deb: $tool is missing (apt-get install dpkg-dev)" >&2; exit 1; }
done
version=$("$root/usr/bin/perfdb" --version | sed -n 's/^perfdb //p')
arch=$(dpkg --print-architecture)
[ -n "$version" ] && [ -n "$arch" ] || { echo "make deb: no version or architecture" >&2; exit 1; }
# dpkg-shlibdeps reads debian/control (empty: nothing to add), and finds the
# package's root by its DEBIAN folder
: > "$dir/debian/control"
mkdir -p "$root/DEBIAN"
depends=$(cd "$dir" && dpkg-shlibdeps -O debian/perfdb/usr/bin/perfdb | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "make deb: dpkg-shlibdeps found no dependency" >&2; exit 1; }
cat > "$root/DEBIAN/control" <<END
Package: perfdb
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk "$root/usr" | cut -f1)
Depends: $depends, fonts-dejavu-core
Section: devel
Priority: optional
Description: benchmark results in one SQLite file: compare, gate, plot
 perfdb ingests the results of benchmark tools and keeps every sample of
 every run in one SQLite file; it compares runs with statistical tests to
 gate CI, detects change points, runs benchmarks and load tests, draws
 charts with cairo and writes reports and a static site.
END
deb=$dir/perfdb_${version}_$arch.deb
dpkg-deb --root-owner-group --build "$root" "$deb" >/dev/null || exit 1
echo "$deb"
