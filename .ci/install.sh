#!/usr/bin/env bash
# Installs what a dind-bench run needs on a Debian machine, idempotently: the Docker engine from Debian,
# debootstrap (offline base images), the benchmark tools for the `native` environment, docker buildx and
# compose from Debian's packages, and the npm dependencies of the command (not the dev ones). Safe to run
# again: it skips what is there. The project's own checks (tests in Chromium, type checks, workflow linters, act)
# need more: .ci/install-ci-tools.sh, which .ci/run calls after this.
set -euo pipefail
cd "$(dirname "$0")/.."

# Where the install's time goes, printed at the end (the README's fresh-machine figures come from it).
t_start=$SECONDS
times=()
took() { times+=("$1 $((SECONDS - t_mark)) s"); t_mark=$SECONDS; }
t_mark=$SECONDS

# The npm dependencies of the command (not the dev ones: .ci/install-ci-tools.sh adds tsc, playwright-core)
# download beside the Debian packages, which npm does not use (the optional native parts of ssh2 build with
# the machine's compiler, or are left out): the install takes about the longer of the two, not their sum.
# npm's output goes to a log, printed if it fails; its own duration is printed at the end.
npm_pid=""
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "install: npm dependencies (beside the Debian packages)"
  npm_log=$(mktemp)
  npm_start=$(date +%s)
  (
    npm ci --omit=dev --no-audit --no-fund --loglevel=error &
    child=$!
    trap 'kill "$child" 2>/dev/null; wait "$child"' TERM
    status=0
    wait "$child" || status=$?
    date +%s >"$npm_log.end"
    exit "$status"
  ) >"$npm_log" 2>&1 &
  npm_pid=$!
  # If the install stops before npm is waited for, the npm it started stops too (npm takes a few seconds).
  stop_npm() {
    local rc=$?
    if [ -n "$npm_pid" ] && kill "$npm_pid" 2>/dev/null; then wait "$npm_pid" || true; fi
    rm -f "$npm_log" "$npm_log.end"
    exit "$rc"
  }
  trap stop_npm EXIT
fi

# git: the suite's commit in every result's provenance; python3: the storage benchmark's probe (native).
apt_packages=(docker.io debootstrap sysbench iptables ca-certificates jq stress-ng fio python3 git)

# iozone3 (for the native environment) is in Debian's non-free component: add it for this host's own
# Debian mirror and release when apt does not know the package yet.
if ! dpkg-query -W -f='${Status}' iozone3 2>/dev/null | grep -q 'install ok installed'; then
  if ! apt-cache show iozone3 >/dev/null 2>&1; then
    mirror="$(grep -hoE '^(URIs:[[:space:]]*|deb[[:space:]]+)[^[:space:]]+/debian/?([[:space:]]|$)' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null \
      | head -n1 | sed -E 's/^(URIs:|deb)[[:space:]]*//; s/[[:space:]]+$//' || true)"
    codename="$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)"
    if [ -n "$mirror" ] && [ -n "$codename" ]; then
      echo "install: enabling Debian non-free ($codename) for iozone3"
      # The same key as the existing entry for that mirror (apt refuses two different Signed-By values).
      signed="$(grep -hoE '^Signed-By:[[:space:]]*[^[:space:]]+' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 | sed -E 's/^Signed-By:[[:space:]]*//' || true)"
      echo "deb ${signed:+[signed-by=$signed] }$mirror $codename non-free" > /etc/apt/sources.list.d/dind-bench-non-free.list
      apt-get update -qq
    fi
  fi
  apt_packages+=(iozone3)
fi
# The network benchmarks' tools for the `native` environment (iperf3, sockperf, ping, Redis, PostgreSQL).
apt_packages+=(iperf3 sockperf iputils-ping redis-server redis-tools postgresql)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install: Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Installing redis-server or postgresql must not leave system daemons running: dind-bench starts its
  # own servers on free ports. Where no policy-rc.d forbids service starts, one does for this install.
  own_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
  fi
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [ -n "$own_policy" ]; then rm -f /usr/sbin/policy-rc.d; fi
fi

took packages
# docker buildx (images build: bake) and docker compose v2 (workloads' stacks), from Debian's packages: on
# bookworm from trixie, pinned so that only these two come from it (runners/common/install-plugins.sh,
# shared with the runners' provisioning and the setup action).
bash runners/common/install-plugins.sh buildx compose
took plugins

if [ -n "$npm_pid" ]; then
  pid=$npm_pid
  npm_pid=""
  if ! wait "$pid"; then
    cat "$npm_log" >&2
    echo "install: npm ci failed" >&2
    exit 1
  fi
  npm_took=$(($(cat "$npm_log.end") - npm_start))
  took "waiting for npm"
fi
parts=$(IFS=,; echo "${times[*]}")
echo "install: took $((SECONDS - t_start)) s (${parts//,/, }${npm_took:+; npm $npm_took s beside the packages})"
