#!/usr/bin/env bash
# Makes this lab machine (Debian or Ubuntu) a dind-bench runner: a pinned Docker Engine, a `runner` user
# in the docker group (not in sudo), the runner scripts and the pinned runner release, root-owned, and a
# systemd service that resets the machine, then takes ONE job as an ephemeral runner, again and again.
#
#   sudo ENGINE_VERSION=28.2 bash runners/lab/install.sh
#
# No GitHub credential is installed here: broker.sh, run where the registration credential lives,
# delivers one single-use JIT runner configuration per job over SSH (see README.md).
set -euo pipefail
cd "$(dirname "$0")"
[ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root (sudo)" >&2; exit 1; }
ENGINE_VERSION=${ENGINE_VERSION:-28.2}
lib=/usr/local/lib/dind-bench-runner

# Everything the workflow needs (git, jq, Node where the distribution has >= 20, native tools, debootstrap)
# and the pinned Engine from Docker's repository.
bash ../common/provision.sh --engine docker-ce --engine-version "$ENGINE_VERSION"
id runner >/dev/null 2>&1 || useradd --create-home --shell /bin/bash runner
usermod -aG docker runner

install -d -o root -g root -m 0755 "$lib"
install -o root -g root -m 0755 ../common/ephemeral-runner.sh ../common/clean-engine.sh ../common/install-engine.sh \
  ../common/install-plugins.sh ../common/provision.sh ../common/runner-release.sh ../common/runner-version.sh "$lib/"
bash "$lib/runner-release.sh"
install -d -o root -g root -m 0700 /var/lib/dind-bench-runner /var/lib/dind-bench-runner/jit
umask 022
cat > /etc/dind-bench-runner.env <<ENV
JIT_SOURCE=spool
ENGINE_VERSION=$ENGINE_VERSION
ENV
install -m 0644 dind-bench-runner.service /etc/systemd/system/dind-bench-runner.service
systemctl daemon-reload
systemctl enable --now dind-bench-runner.service
echo "dind-bench runner installed (Docker Engine $ENGINE_VERSION); it waits for broker.sh; journalctl -u dind-bench-runner -f"
