#!/bin/sh
# Stands in for a package manager filling its cache: 200 files of 64 KiB, made once per cache.
set -e
cache=$1
[ -f "$cache/.complete" ] && exit 0
for i in $(seq 1 200); do head -c 65536 /dev/urandom > "$cache/dep-$i.bin"; done
touch "$cache/.complete"
