#!/usr/bin/env bash
# Upgrades (or downgrades) the Docker Engine of a lab runner without breaking a job: drains the runner
# (no new job starts), waits for the running job to end, installs the Engine version, and resumes. The
# runner re-registers with the new docker-<version> label, so the history shows the change.
#   sudo bash runners/lab/upgrade.sh 28.2
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "upgrade.sh: run as root (sudo)" >&2; exit 1; }
want=${1:?usage: upgrade.sh ENGINE_VERSION}
lib=/usr/local/lib/dind-bench-runner

touch /etc/dind-bench-runner.drain
echo "draining: no new job will start; waiting for the current one"
# A runner waiting for a job is stopped at once; one running a job (Runner.Worker) is left to finish.
until ! systemctl is-active --quiet dind-bench-runner || ! pgrep -u runner -f Runner.Worker >/dev/null; do sleep 10; done
systemctl stop dind-bench-runner
bash "$lib/install-engine.sh" "$want"
sed -i "s/^ENGINE_VERSION=.*/ENGINE_VERSION=$want/" /etc/dind-bench-runner.env
rm -f /etc/dind-bench-runner.drain
systemctl start dind-bench-runner
echo "runner resumed on Docker Engine $(docker version --format '{{.Server.Version}}')"
