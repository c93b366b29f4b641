#!/usr/bin/env bash
# What `npm test` needs on top of what a run needs (.ci/install.sh, which ./quickstart calls): the npm dev
# dependencies (playwright-core, marked, tsc) and Debian's headless Chromium for the site and report tests.
# `npm test` calls it first (package.json "pretest"), so the README's two commands work on a fresh machine
# in that order; it is idempotent and returns in well under a second when everything is there.
# Without root, Chromium cannot be installed: it says how, and the browser tests then report themselves
# skipped (failed under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q 'install ok installed'; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "install-test-tools: Debian package chromium"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    echo "install-test-tools: chromium is missing; as root: apt-get install chromium (browser tests skip without it)" >&2
  fi
fi

# ./quickstart installs the command's dependencies only (npm ci --omit=dev).
if [ ! -d node_modules/typescript ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/marked ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "install-test-tools: npm dependencies, with the dev ones"
  npm ci --no-audit --no-fund --loglevel=error
fi
