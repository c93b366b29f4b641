#!/usr/bin/env bash
# The project's own checks on top of .ci/install.sh (what a run needs): what `npm test` needs
# (.ci/install-test-tools.sh: headless Chromium, the npm dev dependencies, docker compose, kubernetes-validate),
# then shellcheck and the workflow tooling (act for the offline end-to-end run of the workflows; actionlint,
# zizmor, cloud-init's and Kubernetes' schemas for .ci/lint.sh). Versions shared with the other install
# scripts are pinned in .ci/install-lib.sh. Idempotent: it skips what is there. `./quickstart` does not
# need any of it.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=.ci/install-lib.sh
. .ci/install-lib.sh   # apt_install_missing, pip_tool

ACT_VERSION=v0.2.89
ACTIONLINT_VERSION=v1.7.12
ZIZMOR_VERSION=1.32.0

apt_install_missing install-ci-tools shellcheck python3-pip cloud-init

# Go tools go to /usr/local/bin, so every later step (and act's jobs) finds them on PATH.
go_tool() { # name version module
  if ! command -v "$1" >/dev/null 2>&1 || ! "$1" --version 2>&1 | grep -q "${2#v}"; then
    echo "install-ci-tools: $1 $2 (go install)"
    GOBIN=/usr/local/bin go install "$3@$2"
  fi
}
go_tool act "$ACT_VERSION" github.com/nektos/act
go_tool actionlint "$ACTIONLINT_VERSION" github.com/rhysd/actionlint/cmd/actionlint

pip_tool install-ci-tools zizmor zizmor "$ZIZMOR_VERSION"

# What `npm test` installs itself (its pretest): Chromium, the npm dev dependencies, docker compose and
# kubernetes-validate (which .ci/lint.sh uses too).
bash .ci/install-test-tools.sh
