# shellcheck shell=bash
# Install steps shared by .ci/install.sh (what a run needs; ./quickstart calls it), .ci/install-test-tools.sh
# (what `npm test` needs; its pretest) and .ci/install-ci-tools.sh (the project's other checks), so each tool
# is installed one way, at one pinned version, whichever command brings it. Sourced after
# `set -euo pipefail`; each function skips what is already there.

COMPOSE_VERSION=v2.40.3              # the newest compose v2 release the Go module proxy served when pinned (2026-11)
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

# install_compose TAG: the docker compose v2 plugin at COMPOSE_VERSION in ~/.docker/cli-plugins, unless
# `docker compose version` already reports that version. Workloads bring up their compose stacks with it.
# Debian bookworm packages only the retired Python 1.29, so the plugin is built from its Go module.
# `go install mod@version` refuses the module (its go.mod has exclude directives): its source is fetched
# with `go mod download` and built there. About 2 min on 2 cores, most of it downloading modules.
install_compose() {
  local tag=$1
  local plugin="$HOME/.docker/cli-plugins/docker-compose"
  case "$(docker compose version 2>/dev/null || true)" in *"${COMPOSE_VERSION#v}"*) return 0 ;; esac
  command -v go >/dev/null || {
    echo "$tag: docker compose $COMPOSE_VERSION is missing, and building it needs Go (>= 1.24) on PATH" >&2
    return 1
  }
  echo "$tag: docker compose $COMPOSE_VERSION (go build)"
  # Each step checked here: a caller may run this in an `||` list, where `set -e` does not apply.
  local work src
  work="$(mktemp -d)"
  src="$(cd "$work" && GOFLAGS=-mod=mod go mod download -json "github.com/docker/compose/v2@$COMPOSE_VERSION" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')" \
    && cp -r "$src" "$work/src" && chmod -R u+w "$work/src" \
    && (cd "$work/src" && CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$COMPOSE_VERSION" -o "$work/docker-compose" ./cmd) \
    && mkdir -p "$(dirname "$plugin")" && cp "$work/docker-compose" "$plugin" && chmod +x "$plugin"
  local status=$?
  rm -rf "$work"
  return "$status"
}
