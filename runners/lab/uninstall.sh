#!/usr/bin/env bash
# Removes the dind-bench runner from this lab machine: drains it like upgrade.sh and removes the service,
# the scripts, the runner release, the spool and the runner folder. Docker Engine stays installed (held
# at its version; `apt-mark unhold docker-ce docker-ce-cli` releases it). A registration the broker made
# that never ran a job is removed from the broker's side: `bash runners/common/deregister.sh NAME`.
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "uninstall.sh: run as root (sudo)" >&2; exit 1; }
touch /etc/dind-bench-runner.drain
until ! systemctl is-active --quiet dind-bench-runner || ! pgrep -u runner -f Runner.Worker >/dev/null; do sleep 10; done
systemctl disable --now dind-bench-runner 2>/dev/null || true
rm -f /etc/systemd/system/dind-bench-runner.service /etc/dind-bench-runner.env /etc/dind-bench-runner.drain
rm -rf /usr/local/lib/dind-bench-runner /var/lib/dind-bench-runner /opt/actions-runner
systemctl daemon-reload
echo "dind-bench runner removed"
