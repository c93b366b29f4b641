#!/usr/bin/env bash
# MAINTAINER SIDE. Moves the pinned GitHub Actions runner release (runner-version.sh) to VERSION, or to
# the latest release. Runners start with updates disabled (ephemeral-runner.sh), so this pin is the
# runner every job gets; GitHub stops sending jobs to a runner whose updates are disabled some weeks after
# a newer release, so bump it when one comes out, and commit the change like any other.
#
#   bash runners/common/bump-runner.sh [VERSION]
#
# The tarball's SHA-256 is pinned only when two sources agree: the digest GitHub publishes for the
# release asset (the API's asset digest, or the SHA line of the release notes) and the SHA-256 of the
# tarball downloaded here. RUNNER_VERSION_FILE writes elsewhere than runner-version.sh (tests).
set -euo pipefail
file=${RUNNER_VERSION_FILE:-$(dirname "${BASH_SOURCE[0]}")/runner-version.sh}
api=https://api.github.com/repos/actions/runner/releases
if [ -n "${1:-}" ]; then
  json=$(curl -fsSL -H 'Accept: application/vnd.github+json' "$api/tags/v${1#v}")
else
  json=$(curl -fsSL -H 'Accept: application/vnd.github+json' "$api/latest")
fi
version=$(jq -er '.tag_name | ltrimstr("v")' <<<"$json")
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "bump-runner.sh: the release's tag is not a version: $version" >&2
  exit 1
fi
tarball="actions-runner-linux-x64-$version.tar.gz"
listed=$(jq -r --arg n "$tarball" '
  ([.assets[]? | select(.name == $n) | .digest // empty | select(startswith("sha256:")) | ltrimstr("sha256:")][0])
  // (.body // "" | capture("<!-- BEGIN SHA linux-x64 -->(?<sha>[0-9a-f]{64})<!-- END SHA linux-x64 -->").sha)
  // empty' <<<"$json")
if ! [[ "$listed" =~ ^[0-9a-f]{64}$ ]]; then
  echo "bump-runner.sh: GitHub publishes no SHA-256 for $tarball (no asset digest, no SHA line in the release notes); not pinning it" >&2
  exit 1
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
curl -fsSL -o "$tmp" "https://github.com/actions/runner/releases/download/v$version/$tarball"
got=$(sha256sum "$tmp" | cut -d' ' -f1)
if [ "$got" != "$listed" ]; then
  echo "bump-runner.sh: $tarball downloaded with SHA-256 $got, but GitHub lists $listed; not pinning it" >&2
  exit 1
fi
before=$(sed -n 's/^RUNNER_VERSION=//p' "$file")
cat >"$file.tmp" <<PIN
# shellcheck shell=bash
# The pinned GitHub Actions runner release (sourced by runner-release.sh and ephemeral-runner.sh); moved
# to a new release by bump-runner.sh.
RUNNER_VERSION=$version
RUNNER_TARBALL=actions-runner-linux-x64-\$RUNNER_VERSION.tar.gz
# SHA-256 of actions-runner-linux-x64-$version.tar.gz: GitHub's published digest and the downloaded file agree.
RUNNER_SHA256=$got
export RUNNER_VERSION RUNNER_TARBALL RUNNER_SHA256
PIN
mv "$file.tmp" "$file"
echo "runner ${before:-?} -> $version (sha256 $got) in $file"
echo "ARC pins its runner image by its own tag and digest: runners/k8s/Dockerfile and values-*.yaml"
