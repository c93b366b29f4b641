#!/usr/bin/env bash
# Removes this machine's runner registration, if any: on VM shutdown (GCE shutdown script), on lab
# removal, or when a job never came. An ephemeral runner that finished its job is already gone.
set -euo pipefail
# shellcheck source=/dev/null
[ -f /etc/dind-bench-runner.env ] && . /etc/dind-bench-runner.env
: "${RUNNER_SCOPE:?}" "${RUNNER_PAT_FILE:?}"
home=${RUNNER_HOME:-/opt/actions-runner}
[ -f "$home/.runner" ] || { echo "no runner registered here"; exit 0; }
case "$RUNNER_SCOPE" in */*) endpoint="repos/$RUNNER_SCOPE" ;; *) endpoint="orgs/$RUNNER_SCOPE" ;; esac
token=$(curl -fsS -X POST -H "Authorization: Bearer $(cat "$RUNNER_PAT_FILE")" -H 'Accept: application/vnd.github+json' \
  "https://api.github.com/$endpoint/actions/runners/remove-token" | jq -r .token)
runuser -u "${RUNNER_USER:-runner}" -- "$home/config.sh" remove --token "$token"
