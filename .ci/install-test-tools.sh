#!/usr/bin/env bash
# What `npm test` needs on top of what a run needs (.ci/install.sh, which ./quickstart calls): the npm dev
# dependencies (playwright-core, marked, tsc), Debian's headless Chromium for the site and report tests, the
# docker compose plugin for the workload examples (./quickstart leaves it out unless it runs a workload) and
# the kubernetes-validate Python package for runners/k8s/validate.py, each installed the way .ci/install.sh
# and .ci/install-ci-tools.sh install it (.ci/install-lib.sh). `npm test` calls it first (package.json
# "pretest"), so the README's two commands work on a fresh machine in that order; it is idempotent and
# returns in well under a second when everything is there (building compose, the first time: about 2 min).
# Without root, Debian packages cannot be installed: it says which, and the tests that need them then report
# themselves skipped (failed under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=.ci/install-lib.sh
. .ci/install-lib.sh

# python3-yaml: the brokers' workflow check (runners/common/workflow-check.py). iproute2: the fault tests
# make a bridge for an engine of their own (test/helpers/own-engine.js); a slim Debian (CI's container)
# lacks it.
packages=(chromium python3-pip python3-yaml iproute2)
if [ "$(id -u)" -eq 0 ]; then
  apt_install_missing install-test-tools "${packages[@]}"
else
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
      || echo "install-test-tools: $p is missing; as root: apt-get install $p (the tests that need it skip without it)" >&2
  done
fi

# The compose plugin goes to ~/.docker/cli-plugins and the Python package to pip's site: no root needed,
# once python3-pip is there.
install_compose install-test-tools \
  || echo "install-test-tools: without docker compose the compose-db workload test fails (it names the fix)" >&2
if command -v pip3 >/dev/null; then
  pip_tool install-test-tools kubernetes-validate kubernetes-validate "$KUBERNETES_VALIDATE_VERSION"
fi

# ./quickstart installs the command's dependencies only (npm ci --omit=dev).
if [ ! -d node_modules/typescript ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/marked ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "install-test-tools: npm dependencies, with the dev ones"
  npm ci --no-audit --no-fund --loglevel=error
fi
