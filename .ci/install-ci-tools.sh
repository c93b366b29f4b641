#!/usr/bin/env bash
# The project's own checks on top of .ci/install.sh (what a run needs): what `npm test` needs
# (.ci/install-test-tools.sh: headless Chromium, the npm dev dependencies), shellcheck, and the workflow tooling
# (act for the offline end-to-end run of the workflows; actionlint, zizmor, cloud-init's and Kubernetes'
# schemas for .ci/lint.sh). Idempotent: it skips what is there. `./quickstart` does not need any of it.
set -euo pipefail
cd "$(dirname "$0")/.."

ACT_VERSION=v0.2.89
ACTIONLINT_VERSION=v1.7.12
ZIZMOR_VERSION=1.32.0
KUBERNETES_VALIDATE_VERSION=1.37.0   # ships the Kubernetes JSON schemas: validates runners/k8s offline

apt_packages=(shellcheck python3-pip cloud-init)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-ci-tools: Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Go tools go to /usr/local/bin, so every later step (and act's jobs) finds them on PATH.
go_tool() { # name version module
  if ! command -v "$1" >/dev/null 2>&1 || ! "$1" --version 2>&1 | grep -q "${2#v}"; then
    echo "install-ci-tools: $1 $2 (go install)"
    GOBIN=/usr/local/bin go install "$3@$2"
  fi
}
go_tool act "$ACT_VERSION" github.com/nektos/act
go_tool actionlint "$ACTIONLINT_VERSION" github.com/rhysd/actionlint/cmd/actionlint

pip_tool() { # command package version
  if ! command -v "$1" >/dev/null 2>&1 || ! pip3 show "$2" 2>/dev/null | grep -qx "Version: $3"; then
    echo "install-ci-tools: $2 $3 (pip)"
    pip3 install --quiet --disable-pip-version-check --break-system-packages "$2==$3" 2>/dev/null \
      || pip3 install --quiet --disable-pip-version-check "$2==$3"
  fi
}
pip_tool zizmor zizmor "$ZIZMOR_VERSION"
pip_tool kubernetes-validate kubernetes-validate "$KUBERNETES_VALIDATE_VERSION"

# Chromium and the npm dev dependencies, as `npm test` installs them itself.
bash .ci/install-test-tools.sh
