#!/usr/bin/env bash
# Removes from the engine on the default socket every container, network and volume a dind-bench run
# labelled (dind-bench.run) and did not remove: a run killed mid-way (SIGKILL, a machine stopped) leaves
# them in the engine's data-root, and an engine started again on that data-root still has them. .ci/run
# calls this only on an engine it started itself, with a data-root of its own, before any run: nothing
# else uses that engine, so whatever carries the label there is a leftover, never another run's. What cannot be
# removed is named and left: the tests' own leftover checks compare against what was there before them.
set -euo pipefail

# Run by hand on an engine that others use, it would remove their runs' objects: it asks to be told.
if [ "${1:-}" != "--own-engine" ]; then
  echo "usage: $0 --own-engine   (only on an engine started for this purpose: it removes every run's objects)" >&2
  exit 2
fi

filter=label=dind-bench.run
removed=0
while read -r id; do
  [ -n "$id" ] || continue
  dir=$(docker inspect --format '{{index .Config.Labels "dind-bench.host-dir"}}' "$id" 2>/dev/null || true)
  docker rm -f -v "$id" >/dev/null || { echo "engine: could not remove container $id" >&2; continue; }
  # Only a folder of the shape a run makes (see src/engine/resources.js isHostDir).
  if [[ "$dir" =~ ^/.*/dind-bench-[A-Za-z0-9]{6}$ ]]; then rm -rf -- "$dir"; fi
  removed=$((removed + 1))
done < <(docker ps -aq --filter "$filter")
while read -r id; do
  [ -n "$id" ] || continue
  docker network rm "$id" >/dev/null || { echo "engine: could not remove network $id" >&2; continue; }
  removed=$((removed + 1))
done < <(docker network ls -q --filter "$filter")
while read -r name; do
  [ -n "$name" ] || continue
  docker volume rm "$name" >/dev/null || { echo "engine: could not remove volume $name" >&2; continue; }
  removed=$((removed + 1))
done < <(docker volume ls -q --filter "$filter")
echo "engine: removed $removed object(s) that killed runs left"
