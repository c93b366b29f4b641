#!/usr/bin/env bash
# Removes the dind-bench runner from this lab machine: drains it like upgrade.sh, deregisters it, and
# removes the service, the scripts, the credential and the runner folder. Docker Engine stays installed
# (held at its version; `apt-mark unhold docker-ce docker-ce-cli` releases it).
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "uninstall.sh: run as root (sudo)" >&2; exit 1; }
touch /etc/dind-bench-runner.drain
until ! systemctl is-active --quiet dind-bench-runner || ! pgrep -u runner -f Runner.Worker >/dev/null; do sleep 10; done
systemctl disable --now dind-bench-runner 2>/dev/null || true
/usr/local/lib/dind-bench-runner/deregister.sh || true
rm -f /etc/systemd/system/dind-bench-runner.service /etc/dind-bench-runner.env /etc/dind-bench-runner.drain /root/.dind-bench-runner-token
rm -rf /usr/local/lib/dind-bench-runner /opt/actions-runner
systemctl daemon-reload
echo "dind-bench runner removed"
