#!/usr/bin/env bash
# After a job on a long-lived (lab) machine: remove every container, volume and network and the job's
# work folder, so nothing one job started or left can meet the next. Images stay (they are the cache the
# next job builds on; `docker image prune` is not needed for safety because images do not run by themselves).
set -euo pipefail
home=${RUNNER_HOME:-/opt/actions-runner}
mapfile -t containers < <(docker ps -aq)
if [ "${#containers[@]}" -gt 0 ]; then docker rm -f -v "${containers[@]}" >/dev/null; fi
docker volume prune -af >/dev/null
docker network prune -f >/dev/null
rm -rf "${home:?}/_work"
echo "engine cleaned: ${#containers[@]} containers removed, volumes and networks pruned"
