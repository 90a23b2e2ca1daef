#!/bin/sh
# fetch-vmlinux.sh DIR [PACKAGE] downloads Debian's debug kernel image
# package (by default linux-image-6.1.0-55-cloud-amd64-dbg, 6.1.192-1) and
# extracts its vmlinux, about 590 MB with DWARF, into DIR; it prints the
# vmlinux's path, for go test ./layout/elfdwarf -run TestVmlinux -vmlinux PATH.
set -eu
dir=${1:?usage: fetch-vmlinux.sh DIR [PACKAGE]}
pkg=${2:-linux-image-6.1.0-55-cloud-amd64-dbg}
mkdir -p "$dir"
cd "$dir"
if ! ls "$pkg"_*.deb >/dev/null 2>&1; then
	apt-get update -qq
	apt-get download "$pkg"
fi
dpkg-deb --fsys-tarfile "$pkg"_*.deb | tar -x --wildcards './usr/lib/debug/boot/vmlinux-*'
ls "$PWD"/usr/lib/debug/boot/vmlinux-*
