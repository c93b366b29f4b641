#!/usr/bin/env bash
# BROKER SIDE (never on a runner machine). Prints a just-in-time (JIT) runner configuration for ONE
# ephemeral runner named NAME with LABELS: GitHub registers the runner now, and the printed config lets
# exactly one runner process start with it, once. It grants nothing else: not registering another
# runner, not the repository. The long-lived credential that may create it stays on the broker.
#
#   RUNNER_SCOPE=my-org RUNNER_GROUP_ID=7 RUNNER_REPOSITORY=my-org/my-repo \
#   RUNNER_APP_ID=... RUNNER_APP_INSTALLATION_ID=... RUNNER_APP_KEY_FILE=./app.pem \
#   bash jit-config.sh NAME LABEL[,LABEL...]
#
# Every time, before asking for a configuration, it checks with GitHub that the runner group admits only
# the bench workflow's refs and no public repository (github-runners.sh, check_runner_setup): a group
# someone opened up since the broker started gets no runner. The variables are described there.
set -euo pipefail
name=${1:?usage: jit-config.sh NAME LABELS}
labels=${2:?usage: jit-config.sh NAME LABELS}
: "${RUNNER_SCOPE:?set RUNNER_SCOPE (the organisation)}"
# shellcheck source=/dev/null
. "$(dirname "${BASH_SOURCE[0]}")/labels.sh"
# Before anything is asked of GitHub: never a GitHub-hosted runner's label.
refuse_hosted_labels "the runner's labels" "$labels" || exit 1
# shellcheck source=/dev/null
. "$(dirname "${BASH_SOURCE[0]}")/github-runners.sh"
check_credential
check_runner_setup
# Repositories have one runner group, the default one (1).
case "$RUNNER_SCOPE" in */*) group=1 ;; *) group=$RUNNER_GROUP_ID ;; esac
body=$(jq -n --arg name "$name" --arg labels "self-hosted,linux,x64,$labels" --argjson group "$group" \
  '{name: $name, runner_group_id: $group, labels: ($labels | split(",")), work_folder: "_work"}')
config=$(gh_api POST "$(scope_endpoint)/actions/runners/generate-jitconfig" "$body" | jq -r .encoded_jit_config)
if [ -z "$config" ] || [ "$config" = null ]; then
  echo "jit-config.sh: GitHub gave no JIT configuration for $name in $RUNNER_SCOPE (check the credential's permission: Self-hosted runners: read and write)" >&2
  exit 1
fi
printf '%s\n' "$config"
