#!/usr/bin/env bash
# Installs everything dind-bench's workflow needs on a runner machine (Debian 12/13, Ubuntu 22.04/24.04),
# so a fresh runner gets from its first job to its first result. Used by runners/lab/install.sh, the GCE
# cloud-init (runners/gce) and the ARC runner image (runners/k8s/Dockerfile). Run as root; idempotent.
#
#   provision.sh [--engine docker-ce|distro|none] [--engine-version 28.2] [--native-tools "sysbench fio"]
#
# --engine docker-ce  Docker Engine ENGINE_VERSION from Docker's apt repository, pinned and held
#                     (install-engine.sh; the default: GCE and lab runners, where the Engine version is an axis)
# --engine distro     the distribution's own Engine (Debian: docker.io, and docker-cli on Debian 13)
# --engine none       only the CLI and its plugins: the engine runs next to the runner and its socket is mounted
#                     (ARC dind mode, a runner in a container). Set DIND_BENCH_SOCKET_DIR for the runner.
# --native-tools      the host tools of the `native` environment (default: sysbench fio stress-ng iperf3)
#
# Every mode: docker buildx and docker compose v2 from the distribution's packages where no package brings
# them yet (install-plugins.sh, next to this script: on Debian 12 from Debian 13, pinned to those two), so
# with docker-ce, Docker's own docker-buildx-plugin stays. Also: git, jq, curl, ca-certificates, debootstrap
# (offline Debian bases), and Node.js >= 20 from the distribution where it has one (Debian 13); elsewhere
# the setup action installs Node (actions/setup-node).
# Ends with a check of what the workflow will find, and prints the fix for anything missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
engine=${ENGINE:-docker-ce}
engine_version=${ENGINE_VERSION:-28.2}
native_tools=${NATIVE_TOOLS:-sysbench fio stress-ng iperf3}
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine=${2:?}; shift 2 ;;
    --engine-version) engine_version=${2:?}; shift 2 ;;
    --native-tools) native_tools=${2?}; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "provision.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$engine" in
  docker-ce|distro|none) ;;
  *) echo "provision.sh: --engine $engine: docker-ce, distro or none" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "provision.sh: run as root" >&2; exit 1; }
# shellcheck source=/dev/null
. /etc/os-release
export DEBIAN_FRONTEND=noninteractive
started=$SECONDS

available() { apt-cache show "$1" >/dev/null 2>&1; }
apt-get update -qq
packages=(ca-certificates curl git jq debootstrap)
# shellcheck disable=SC2206 # a list of package names, split on spaces on purpose
packages+=($native_tools)

# Node.js >= 20 (package.json engines): the distribution's when new enough; never a third-party repository.
node_major=$(apt-cache policy nodejs 2>/dev/null | sed -n 's/ *Candidate: \([0-9]*\).*/\1/p' | head -n1)
if [ -n "$node_major" ] && [ "$node_major" -ge 20 ]; then packages+=(nodejs npm)
else
  echo "provision.sh: $PRETTY_NAME's Node.js is ${node_major:-absent} (< 20): workflows get Node from the setup action"
fi

case "$engine" in
  distro)
    packages+=(docker.io)
    if available docker-cli; then packages+=(docker-cli); fi ;;  # Debian 13 splits the CLI off
  none)
    # An image that already brings the CLI (the ARC runner image) keeps its own.
    if ! command -v docker >/dev/null; then
      if available docker-cli; then packages+=(docker-cli); else packages+=(docker.io); fi
    fi ;;
esac

# Installing a daemon package must not start daemons inside an image build or a container.
own_policy=""
if [ "$engine" = none ] && [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
fi
echo "provision.sh: apt-get install ${packages[*]}"
apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
if [ -n "$own_policy" ]; then rm -f /usr/sbin/policy-rc.d; fi

if [ "$engine" = docker-ce ]; then
  # Next to this script: as install-engine.sh (repository, lab), or as fetched by the GCE cloud-init.
  installer=$here/install-engine.sh
  [ -f "$installer" ] || installer=$here/dind-bench-install-engine
  bash "$installer" "$engine_version"
elif [ "$engine" = distro ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
  systemctl enable --now docker >/dev/null
fi
# After the engine: docker-ce's own buildx plugin, when there, is kept. A failure is reported below.
bash "$here/install-plugins.sh" buildx compose || echo "provision.sh: install-plugins.sh failed (the check below says what is missing)"

# What the workflow will find. Missing pieces are reported with the fix; only a missing CLI is fatal.
missing=0
report() { # name, ok (0/1), detail, fix
  if [ "$2" -eq 0 ]; then echo "ok       $1: $3"; else echo "MISSING  $1: $3 (fix: $4)"; missing=$((missing + 1)); fi
}
have() { command -v "$1" >/dev/null 2>&1; }
if have docker; then report "docker CLI" 0 "$(docker --version)" ""
else report "docker CLI" 1 "not installed" "--engine distro or docker-ce"; fi
if docker buildx version >/dev/null 2>&1; then report "docker buildx" 0 "$(docker buildx version | head -n1)" ""
else
  report "docker buildx" 1 "not installed" \
    "runners/common/install-plugins.sh, or the setup action installs it per job"
fi
if docker compose version >/dev/null 2>&1; then report "docker compose" 0 "$(docker compose version | head -n1)" ""
else report "docker compose" 1 "not installed" "runners/common/install-plugins.sh (workloads need it)"; fi
if have node && [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ]; then
  report "node" 0 "$(node --version)" ""
else report "node" 1 "none >= 20 on PATH" "the setup action (actions/setup-node) installs it in each job"; fi
if have npm; then report "npm" 0 "$(npm --version)" ""
else report "npm" 1 "not installed" "comes with Node from the setup action"; fi
for tool in jq git debootstrap $native_tools; do
  if have "$tool"; then report "$tool" 0 "on PATH" ""; else report "$tool" 1 "not on PATH" "apt-get install $tool"; fi
done
if [ "$engine" = none ]; then
  echo "note     engine: none installed; mount the engine's socket at /var/run/docker.sock" \
    "(or set DOCKER_HOST=unix://...)"
fi
echo "provision.sh: done in $((SECONDS - started)) s ($missing missing; the setup action checks again in each job)"
have docker
