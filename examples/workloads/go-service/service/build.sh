#!/bin/sh
# Stands in for `go build`: BUILD_SECONDS of work on a cold build cache, none on a warm one (the cache
# mount keeps what the last build left, as Go's build cache does).
set -e
seconds=$1
cache=$2
out=$3
mkdir -p "$out"
if [ ! -f "$cache/api.built" ]; then
  sleep "$seconds"
  date > "$cache/api.built"
fi
cp "$cache/api.built" "$out/built-at"
printf '#!/bin/sh\necho "api built at %s"\nexec sleep 3600\n' "$(cat "$out/built-at")" > "$out/serve.sh"
