#!/usr/bin/env bash
# ON THE RUNNER MACHINE, as root. Downloads the pinned GitHub Actions runner release once, checks its
# digest, and keeps it root-owned in /usr/local/lib/dind-bench-runner/: the pristine copy every job's
# runner is unpacked from (ephemeral-runner.sh), so nothing a job changes in the runner survives it.
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "runner-release.sh: run as root" >&2; exit 1; }
# shellcheck source=/dev/null
. "$(dirname "$0")/runner-version.sh"
lib=/usr/local/lib/dind-bench-runner
install -d -o root -g root -m 0755 "$lib"
if ! echo "$RUNNER_SHA256  $lib/$RUNNER_TARBALL" | sha256sum -c --quiet 2>/dev/null; then
  tmp=$(mktemp)
  curl -fsSL -o "$tmp" "https://github.com/actions/runner/releases/download/v$RUNNER_VERSION/$RUNNER_TARBALL"
  echo "$RUNNER_SHA256  $tmp" | sha256sum -c --quiet
  install -o root -g root -m 0644 "$tmp" "$lib/$RUNNER_TARBALL"
  rm -f "$tmp"
fi
# The runner's system dependencies, once, from the pristine copy.
scratch=$(mktemp -d)
tar -C "$scratch" -xzf "$lib/$RUNNER_TARBALL" ./bin/installdependencies.sh
"$scratch/bin/installdependencies.sh" >/dev/null
rm -rf "$scratch"
