#!/usr/bin/env bash
# Installs one pinned Docker Engine version from Docker's apt repository (Debian or Ubuntu), holds it
# there so unattended upgrades cannot change it under the benchmarks, and leaves the daemon on its unix
# socket only (no TCP). Usage: install-engine.sh 28.2   (any 28.2.x; or a full version such as 28.2.2)
set -euo pipefail
want=${1:?usage: install-engine.sh ENGINE_VERSION (e.g. 28.2)}
[ "$(id -u)" -eq 0 ] || { echo "install-engine.sh: run as root" >&2; exit 1; }

# shellcheck source=/dev/null
. /etc/os-release
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq ca-certificates curl gnupg jq >/dev/null
install -m 0755 -d /etc/apt/keyrings
if [ ! -s /etc/apt/keyrings/docker.asc ]; then
  curl -fsSL "https://download.docker.com/linux/$ID/gpg" -o /etc/apt/keyrings/docker.asc
fi
echo "deb [arch=$(dpkg --print-architecture) signed-by=/etc/apt/keyrings/docker.asc] https://download.docker.com/linux/$ID $VERSION_CODENAME stable" \
  > /etc/apt/sources.list.d/docker.list
apt-get update -qq

# The newest package build of the wanted version, e.g. 5:28.2.2-1~ubuntu.24.04~noble for 28.2.
pkg=$(apt-cache madison docker-ce | awk '{print $3}' | grep -E "^[0-9]+:${want//./\\.}([.-]|$)" | head -n1 || true)
if [ -z "$pkg" ]; then
  echo "install-engine.sh: Docker Engine $want is not in Docker's repository for $ID $VERSION_CODENAME; available:" >&2
  apt-cache madison docker-ce | awk '{print "  " $3}' | head -n 15 >&2
  exit 1
fi
apt-mark unhold docker-ce docker-ce-cli >/dev/null 2>&1 || true
apt-get install -y -qq --allow-downgrades "docker-ce=$pkg" "docker-ce-cli=$pkg" containerd.io docker-buildx-plugin >/dev/null
apt-mark hold docker-ce docker-ce-cli >/dev/null

# Unix socket only: refuse a configuration that adds a TCP host.
if [ -f /etc/docker/daemon.json ] && jq -e '.hosts // [] | map(select(startswith("tcp://"))) | length > 0' /etc/docker/daemon.json >/dev/null; then
  echo "install-engine.sh: /etc/docker/daemon.json opens the engine on TCP; remove that (see SECURITY.md)" >&2
  exit 1
fi
systemctl enable --now docker >/dev/null
echo "installed Docker Engine $(docker version --format '{{.Server.Version}}')"
