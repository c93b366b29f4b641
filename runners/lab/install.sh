#!/usr/bin/env bash
# Makes this lab machine (Debian or Ubuntu) a dind-bench runner: a pinned Docker Engine, a `runner` user
# in the docker group (not in sudo), the runner scripts and a systemd service that takes one job at a
# time as an ephemeral runner and cleans the engine between jobs.
#
#   sudo SCOPE=owner/repo TOKEN_FILE=./token ENGINE_VERSION=28.2 LABELS=lab,rack-3 bash runners/lab/install.sh
#
# TOKEN_FILE holds the registration credential described in runners/README.md; it is copied to a root-only
# file and never given to jobs.
set -euo pipefail
cd "$(dirname "$0")"
[ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root (sudo)" >&2; exit 1; }
: "${SCOPE:?set SCOPE (owner/repo or organisation)}" "${TOKEN_FILE:?set TOKEN_FILE}"
ENGINE_VERSION=${ENGINE_VERSION:-28.2}
LABELS=${LABELS:-lab}
lib=/usr/local/lib/dind-bench-runner

bash ../common/install-engine.sh "$ENGINE_VERSION"
id runner >/dev/null 2>&1 || useradd --create-home --shell /bin/bash runner
usermod -aG docker runner

install -d -m 0755 "$lib"
install -m 0755 ../common/ephemeral-runner.sh ../common/deregister.sh ../common/clean-engine.sh ../common/install-engine.sh "$lib/"
install -m 0600 "$TOKEN_FILE" /root/.dind-bench-runner-token
umask 077
cat > /etc/dind-bench-runner.env <<ENV
RUNNER_SCOPE=$SCOPE
RUNNER_PAT_FILE=/root/.dind-bench-runner-token
RUNNER_LABELS=$LABELS
ENGINE_VERSION=$ENGINE_VERSION
ENV
install -m 0644 dind-bench-runner.service /etc/systemd/system/dind-bench-runner.service
systemctl daemon-reload
systemctl enable --now dind-bench-runner.service
echo "dind-bench runner installed: Docker Engine $ENGINE_VERSION, labels $LABELS; journalctl -u dind-bench-runner -f"
