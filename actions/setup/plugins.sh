#!/usr/bin/env bash
# The setup action's docker buildx and docker compose: whichever of the two does not answer on the runner
# is installed from the distribution's packages by the suite's runners/common/install-plugins.sh (on Debian
# 12 from Debian 13, pinned so that only those two packages come from it), where the runner has apt-get and
# root or sudo without a password. Elsewhere nothing is installed and a warning says so. Writes
# `buildx=true|false` and `compose=true|false` (whether each answers afterwards) to GITHUB_OUTPUT: the
# action falls back to docker/setup-buildx-action for a buildx still missing.
set -euo pipefail
suite=${DIND_BENCH_SUITE:?DIND_BENCH_SUITE must be the dind-bench suite (actions/setup/suite.sh sets it)}
answers() { docker "$1" version >/dev/null 2>&1; }

missing=()
for p in buildx compose; do answers "$p" || missing+=("$p"); done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "dind-bench plugins: docker buildx and docker compose are there"
elif ! command -v apt-get >/dev/null; then
  echo "::warning title=dind-bench plugins::docker ${missing[*]} missing and no apt-get on this runner: install them with the runner's image"
else
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    if sudo -n true 2>/dev/null; then
      # The runner user's plugin folder is the one the shadowing check looks at.
      as_root=(sudo -n env "DOCKER_CONFIG=${DOCKER_CONFIG:-$HOME/.docker}")
    else
      as_root=(none)
    fi
  fi
  if [ "${as_root[*]}" = none ]; then
    echo "::warning title=dind-bench plugins::docker ${missing[*]} missing, and installing packages needs root or sudo without a password" \
      "(provision the runner with runners/common/provision.sh)"
  else
    echo "dind-bench plugins: docker ${missing[*]} from the distribution's packages"
    "${as_root[@]}" bash "$suite/runners/common/install-plugins.sh" "${missing[@]}" \
      || echo "::warning title=dind-bench plugins::installing docker ${missing[*]} from packages failed (see the log above)"
  fi
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  for p in buildx compose; do
    if answers "$p"; then echo "$p=true"; else echo "$p=false"; fi
  done >> "$GITHUB_OUTPUT"
fi
