#!/usr/bin/env bash
# Registers this machine as an ephemeral GitHub Actions runner, runs exactly one job, and exits (the runner
# deregisters itself after an ephemeral job). Used by the GCE VMs (then the VM is replaced) and by the lab
# service (which cleans up and calls it again).
#
# Configuration, from the environment or /etc/dind-bench-runner.env:
#   RUNNER_SCOPE     owner/repo (or an organisation name) the runner serves
#   RUNNER_PAT_FILE  root-only file holding a fine-grained token with "Administration: write" on that
#                    repository (or "Self-hosted runners: write" on the organisation): used only here, to ask
#                    GitHub for a one-hour registration token, never passed to jobs
#   RUNNER_LABELS    extra labels (comma-separated), e.g. gce or lab; docker-<engine version> and the
#                    machine type are added here
#   RUNNER_GROUP     runner group (organisations), default "Default"
#   RUNNER_USER      user the runner runs as (default: runner)
#   RUNNER_HOME      where the runner is unpacked (default: /opt/actions-runner)
set -euo pipefail
# shellcheck source=/dev/null
[ -f /etc/dind-bench-runner.env ] && . /etc/dind-bench-runner.env

RUNNER_VERSION=2.321.0
# SHA-256 of actions-runner-linux-x64-2.321.0.tar.gz as published with the release.
RUNNER_SHA256=ba46ba7ce3a4d7236b16fbe44419fb453bc08f866b24f04d549ec89f1722a29e

: "${RUNNER_SCOPE:?set RUNNER_SCOPE (owner/repo or organisation)}" "${RUNNER_PAT_FILE:?set RUNNER_PAT_FILE}"
user=${RUNNER_USER:-runner}
home=${RUNNER_HOME:-/opt/actions-runner}
api=https://api.github.com

# Unpack the pinned runner once, after checking its digest.
if [ ! -x "$home/config.sh" ]; then
  tarball=$(mktemp)
  curl -fsSL -o "$tarball" "https://github.com/actions/runner/releases/download/v$RUNNER_VERSION/actions-runner-linux-x64-$RUNNER_VERSION.tar.gz"
  echo "$RUNNER_SHA256  $tarball" | sha256sum -c --quiet
  mkdir -p "$home"
  tar -C "$home" -xzf "$tarball"
  rm -f "$tarball"
  "$home/bin/installdependencies.sh" >/dev/null
  chown -R "$user:" "$home"
fi

# Labels: what the workflow selects on. The host Engine version lets a fleet mid-upgrade run both.
engine=$(docker version --format '{{.Server.Version}}' | cut -d. -f1,2)
machine=$(curl -fs -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/instance/machine-type 2>/dev/null | awk -F/ '{print $NF}' || true)
labels="dind-bench,docker-$engine${machine:+,$machine}${RUNNER_LABELS:+,$RUNNER_LABELS}"

case "$RUNNER_SCOPE" in
  */*) endpoint="repos/$RUNNER_SCOPE"; url="https://github.com/$RUNNER_SCOPE" ;;
  *) endpoint="orgs/$RUNNER_SCOPE"; url="https://github.com/$RUNNER_SCOPE" ;;
esac
token=$(curl -fsS -X POST -H "Authorization: Bearer $(cat "$RUNNER_PAT_FILE")" -H 'Accept: application/vnd.github+json' \
  "$api/$endpoint/actions/runners/registration-token" | jq -r .token)
if [ -z "$token" ] || [ "$token" = null ]; then
  echo "ephemeral-runner.sh: GitHub refused a registration token for $RUNNER_SCOPE (check the token in $RUNNER_PAT_FILE)" >&2
  exit 1
fi

name="$(hostname)-$(date +%s)"
echo "registering $name for $RUNNER_SCOPE with labels self-hosted,linux,x64,$labels"
runuser -u "$user" -- "$home/config.sh" --unattended --ephemeral --replace --disableupdate \
  --url "$url" --token "$token" --name "$name" --labels "$labels" --runnergroup "${RUNNER_GROUP:-Default}" --work _work
# One job, then the runner exits and GitHub forgets it.
runuser -u "$user" -- "$home/run.sh"
