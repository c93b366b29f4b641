#!/usr/bin/env bash
# BROKER SIDE. Removes the runner registration NAME (a machine that was deleted or uninstalled before
# its ephemeral runner took a job; a runner that ran its job is already gone). Runner machines hold no
# credential that could do this.
#   RUNNER_SCOPE=owner/repo RUNNER_PAT_FILE=./token bash deregister.sh NAME
set -euo pipefail
name=${1:?usage: deregister.sh NAME}
: "${RUNNER_SCOPE:?}" "${RUNNER_PAT_FILE:?}"
case "$RUNNER_SCOPE" in */*) endpoint="repos/$RUNNER_SCOPE" ;; *) endpoint="orgs/$RUNNER_SCOPE" ;; esac
auth() { printf 'header = "Authorization: Bearer %s"\n' "$(cat "$RUNNER_PAT_FILE")"; }
id=$(auth | curl -fsS -K - -H 'Accept: application/vnd.github+json' \
  "https://api.github.com/$endpoint/actions/runners?per_page=100" | jq -r --arg n "$name" '.runners[] | select(.name == $n) | .id')
[ -n "$id" ] || { echo "no runner named $name"; exit 0; }
auth | curl -fsS -K - -X DELETE -H 'Accept: application/vnd.github+json' "https://api.github.com/$endpoint/actions/runners/$id"
echo "runner $name removed"
