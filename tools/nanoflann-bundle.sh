#!/bin/sh
# nanoflann-bundle.sh DIR - nanoflann's header (Debian's libnanoflann-dev) in a folder, so that a
# GPU machine with no package registry builds chapter 03 with its CPU yardstick:
#     make NANOFLANN_DIR=DIR ...      (the Makefile adds -IDIR and -DKNN_HAVE_NANOFLANN)
# Takes the package with apt-get download and unpacks it with dpkg -x in a temporary folder
# (nothing is installed); without a registry, copies /usr/include/nanoflann.hpp when present.
# DIR gets nanoflann.hpp and the package's copyright file (BSD-2-clause).
set -eu
dest=${1:?usage: nanoflann-bundle.sh DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dest"
if command -v apt-get >/dev/null && (cd "$tmp" && apt-get download libnanoflann-dev >/dev/null 2>&1); then
  dpkg -x "$tmp"/libnanoflann-dev_*.deb "$tmp/root"
  src=$tmp/root
elif [ -f /usr/include/nanoflann.hpp ]; then
  src=
else
  echo "nanoflann-bundle: no registry (apt-get download libnanoflann-dev failed) and no /usr/include/nanoflann.hpp" >&2
  exit 1
fi
cp "$src/usr/include/nanoflann.hpp" "$dest/"
if [ -f "$src/usr/share/doc/libnanoflann-dev/copyright" ]; then cp "$src/usr/share/doc/libnanoflann-dev/copyright" "$dest/"; fi
echo "nanoflann bundle in $dest ($(du -sh "$dest" | cut -f1)); use: make NANOFLANN_DIR=$dest"
