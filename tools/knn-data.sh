#!/usr/bin/env bash
# knn-data.sh - the real point clouds of chapter 03 (kd-tree nearest neighbours).
#   tools/knn-data.sh [DIR]        copy the clouds' files into DIR (default $BUILDROOT/knn-data,
#                                  i.e. build/knn-data, where the chapter looks; KNN_DATA=DIR
#                                  points it elsewhere).  Takes them from the installed Debian
#                                  packages (make deps-data) or, when not installed, from the
#                                  packages downloaded with apt-get download and unpacked with
#                                  dpkg -x in a temporary folder (nothing is installed).  A GPU
#                                  machine without a registry: run this where there is one and
#                                  carry DIR (about 12 MB).
#   tools/knn-data.sh --samples [DIR]   regenerate the committed samples
#                                  chapters/03-kdtree/data/*.inc from DIR's files (maintainers).
# The clouds: bunny00.off, armadillo.off, building.ply from libcgal-demo (its data.tar.gz), and
# pond.0.ply from assimp-testmodels; their licenses are in each sample's first comment.
set -euo pipefail
cd "$(dirname "$0")/.."
samples=0
if [ "${1:-}" = --samples ]; then samples=1; shift; fi
dir=${1:-${BUILDROOT:-build}/knn-data}
cgal_files="data/meshes/bunny00.off data/meshes/armadillo.off data/points_3/building.ply"
pond=usr/share/assimp/models/PLY/pond.0.ply

have_all() { for f in bunny00.off armadillo.off building.ply pond.0.ply; do [ -s "$dir/$f" ] || return 1; done; }

if [ $samples = 0 ]; then
  mkdir -p "$dir"
  if have_all; then echo "knn-data: $dir already has the four clouds"; exit 0; fi
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # a package's root: / when installed, else the unpacked download
  root_of() { # PACKAGE FILE-IN-IT
    if [ -e "/$2" ]; then echo /; return; fi
    command -v apt-get >/dev/null || { echo "knn-data: $1 is not installed and there is no apt-get" >&2; return 1; }
    (cd "$tmp" && apt-get download "$1" >/dev/null 2>&1) || { echo "knn-data: apt-get download $1 failed" >&2; return 1; }
    mkdir -p "$tmp/$1" && dpkg -x "$tmp"/"$1"_*.deb "$tmp/$1" && echo "$tmp/$1"
  }
  r=$(root_of libcgal-demo usr/share/doc/libcgal-dev/data.tar.gz)
  # shellcheck disable=SC2086
  tar -xzf "$r/usr/share/doc/libcgal-dev/data.tar.gz" -C "$tmp" $cgal_files
  for f in $cgal_files; do cp "$tmp/$f" "$dir/"; done
  r=$(root_of assimp-testmodels $pond)
  cp "$r/$pond" "$dir/"
  have_all || { echo "knn-data: some clouds are missing in $dir" >&2; exit 1; }
  echo "knn-data: $(ls "$dir" | tr '\n' ' ')in $dir ($(du -sh "$dir" | cut -f1))"
  exit 0
fi

# --samples: 1500 points of each file, with where it came from and its license
have_all || { echo "knn-data: run tools/knn-data.sh $dir first" >&2; exit 1; }
exe=$(mktemp)
trap 'rm -f "$exe"' EXIT
gcc -std=c11 -O2 -Wall -Ireference -Ichapters/03-kdtree -I"${CUDA:-/usr/local/cuda}/include" \
  tools/knn_sample.c chapters/03-kdtree/knn_read.c -o "$exe"
cgal="from Debian's libcgal-demo 5.5.1-2 (/usr/share/doc/libcgal-dev/data.tar.gz). CGAL's LICENSE (in debian/copyright) puts the files that carry no copyright notice of their own, like this one, under CC0 1.0"
out=chapters/03-kdtree/data
"$exe" "$dir/bunny00.off" 1500 "bunny: data/meshes/bunny00.off, the Stanford Bunny (Stanford 3D Scanning Repository) as shipped $cgal." >$out/bunny.inc
"$exe" "$dir/armadillo.off" 1500 "armadillo: data/meshes/armadillo.off, the Stanford Armadillo (Stanford 3D Scanning Repository) as shipped $cgal." >$out/armadillo.inc
"$exe" "$dir/building.ply" 1500 "building: data/points_3/building.ply, a scanned building (planar segments), $cgal." >$out/building.inc
"$exe" "$dir/pond.0.ply" 1500 "pond: /usr/share/assimp/models/PLY/pond.0.ply from Debian's assimp-testmodels 5.2.5~ds0-1, a binary PLY point cloud of the assimp test models, BSD-3-clause (debian/copyright: Files: *, 2006-2022 ASSIMP Development Team)." >$out/pond.inc
echo "knn-data: samples written to $out"
