# shellcheck shell=bash
# Install steps shared by .ci/install.sh (what a run needs; ./quickstart calls it), .ci/install-test-tools.sh
# (what `npm test` needs; its pretest) and .ci/install-ci-tools.sh (the project's other checks), so each tool
# is installed one way, at one pinned version, whichever command brings it. Sourced after
# `set -euo pipefail`; each function skips what is already there.

# shellcheck disable=SC2034 # read by the scripts that source this file (and by .github/workflows/ci.yml)
KUBERNETES_VALIDATE_VERSION=1.37.0   # ships the Kubernetes JSON schemas: validates runners/k8s offline

# apt_install_missing TAG PACKAGE...: installs the Debian packages not installed yet (as root), printing
# "TAG: Debian packages: ..." first. Returns at once when all are there.
apt_install_missing() {
  local tag=$1 p
  shift
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  echo "$tag: Debian packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# pip_tool TAG COMMAND PACKAGE VERSION: the Python package at that version, unless COMMAND is on PATH and
# that version is installed. Outside a virtualenv, Debian 12's pip needs --break-system-packages.
pip_tool() {
  local tag=$1 command=$2 package=$3 version=$4
  # The installed version from Python's own metadata: a tenth of `pip3 show`'s time, and no pipe to `grep -q`
  # (under pipefail, a reader that stops early fails the writer, and so the check).
  local installed
  installed="$(python3 -c 'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' "$package" 2>/dev/null || true)"
  if ! command -v "$command" >/dev/null 2>&1 || [ "$installed" != "$version" ]; then
    echo "$tag: $package $version (pip)"
    pip3 install --quiet --disable-pip-version-check --break-system-packages "$package==$version" 2>/dev/null \
      || pip3 install --quiet --disable-pip-version-check "$package==$version"
  fi
}

# install_compose TAG: the docker compose v2 plugin, unless `docker compose version` already answers: from the
# distribution's packages (runners/common/install-plugins.sh, as .ci/install.sh installs it: on bookworm,
# trixie's docker-compose, pinned). Needs root; without it, says what to run.
install_compose() {
  local tag=$1
  docker compose version >/dev/null 2>&1 && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "$tag: docker compose is missing; as root: bash runners/common/install-plugins.sh compose" >&2
    return 1
  fi
  echo "$tag: docker compose (Debian's package)"
  bash runners/common/install-plugins.sh compose
}
