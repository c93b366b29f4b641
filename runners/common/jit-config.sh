#!/usr/bin/env bash
# BROKER SIDE (never on a runner machine). Prints a just-in-time (JIT) runner configuration for ONE
# ephemeral runner named NAME with LABELS: GitHub registers the runner now, and the printed config lets
# exactly one runner process start with it, once. It grants nothing else: not registering another
# runner, not the repository. The long-lived credential that may create it stays on the broker.
#
#   RUNNER_SCOPE=owner/repo RUNNER_PAT_FILE=./token bash jit-config.sh NAME LABEL[,LABEL...]
#
#   RUNNER_SCOPE     owner/repo (or an organisation name)
#   RUNNER_PAT_FILE  file with a fine-grained token: "Administration: write" on the repository (or
#                    "Self-hosted runners: write" on the organisation); see runners/README.md
#   RUNNER_GROUP_ID  runner group id (organisations; default 1, the default group)
set -euo pipefail
name=${1:?usage: jit-config.sh NAME LABELS}
labels=${2:?usage: jit-config.sh NAME LABELS}
: "${RUNNER_SCOPE:?set RUNNER_SCOPE (owner/repo or organisation)}" "${RUNNER_PAT_FILE:?set RUNNER_PAT_FILE}"
case "$RUNNER_SCOPE" in */*) endpoint="repos/$RUNNER_SCOPE" ;; *) endpoint="orgs/$RUNNER_SCOPE" ;; esac
body=$(jq -n --arg name "$name" --arg labels "self-hosted,linux,x64,$labels" --argjson group "${RUNNER_GROUP_ID:-1}" \
  '{name: $name, runner_group_id: $group, labels: ($labels | split(",")), work_folder: "_work"}')
# The token goes to curl on stdin (a config "file"), never on a command line other processes can read.
config=$(printf 'header = "Authorization: Bearer %s"\n' "$(cat "$RUNNER_PAT_FILE")" |
  curl -fsS -K - -X POST -H 'Accept: application/vnd.github+json' --data "$body" \
    "https://api.github.com/$endpoint/actions/runners/generate-jitconfig" | jq -r .encoded_jit_config)
if [ -z "$config" ] || [ "$config" = null ]; then
  echo "jit-config.sh: GitHub gave no JIT configuration for $name in $RUNNER_SCOPE (check the token's permissions)" >&2
  exit 1
fi
printf '%s\n' "$config"
