#!/usr/bin/env bash
# BROKER SIDE. Removes the runner registration NAME (a machine that was deleted or uninstalled before
# its ephemeral runner took a job; a runner that ran its job is already gone). Runner machines hold no
# credential that could do this.
#   RUNNER_SCOPE=my-org RUNNER_APP_ID=... RUNNER_APP_INSTALLATION_ID=... RUNNER_APP_KEY_FILE=./app.pem \
#   bash deregister.sh NAME          (or RUNNER_PAT_FILE instead of the App; see github-runners.sh)
set -euo pipefail
name=${1:?usage: deregister.sh NAME}
: "${RUNNER_SCOPE:?set RUNNER_SCOPE (the organisation)}"
# shellcheck source=/dev/null
. "$(dirname "${BASH_SOURCE[0]}")/github-runners.sh"
id=$(gh_get 'actions/runners?per_page=100' | jq -r --arg n "$name" '.runners[] | select(.name == $n) | .id')
[ -n "$id" ] || { echo "no runner named $name"; exit 0; }
gh_api DELETE "$(scope_endpoint)/actions/runners/$id" >/dev/null
echo "runner $name removed"
