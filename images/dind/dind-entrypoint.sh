#!/bin/sh
# Starts the inner Docker daemon as PID 1 (exec), so `docker stop` on the outer container reaches
# dockerd directly and its stop time is the daemon's own.
set -e
# cgroup v2 hosts: move this process out of the root cgroup so the inner daemon can enable
# controllers for its own children (otherwise "cannot enter cgroupv2 ... with domain controllers").
if [ -f /sys/fs/cgroup/cgroup.controllers ] && [ -w /sys/fs/cgroup/cgroup.subtree_control ]; then
  mkdir -p /sys/fs/cgroup/init
  xargs -rn1 < /sys/fs/cgroup/cgroup.procs > /sys/fs/cgroup/init/cgroup.procs 2>/dev/null || :
  sed -e 's/ / +/g' -e 's/^/+/' < /sys/fs/cgroup/cgroup.controllers > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || :
fi
exec "$@"
