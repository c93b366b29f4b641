# shellcheck shell=bash
# BROKER SIDE, sourced by the brokers. What GitHub says about a runner registration: the one source of
# evidence about a runner that a job cannot forge (a job controls its whole machine, not GitHub).
#   RUNNER_SCOPE     owner/repo (or an organisation name)
#   RUNNER_PAT_FILE  file with the registration credential (see jit-config.sh)

# GET https://api.github.com/<scope endpoint>/PATH; the token goes to curl on stdin, never on a command line.
gh_get() {
  local endpoint
  case "$RUNNER_SCOPE" in */*) endpoint="repos/$RUNNER_SCOPE" ;; *) endpoint="orgs/$RUNNER_SCOPE" ;; esac
  printf 'header = "Authorization: Bearer %s"\n' "$(cat "$RUNNER_PAT_FILE")" |
    curl -fsS -K - -H 'Accept: application/vnd.github+json' "https://api.github.com/$endpoint/$1"
}

# Prints the state of the runner registration NAME: none (not registered: a JIT runner is removed after
# its one job), busy (running a job), online (waiting for one) or offline. Fails when GitHub cannot be
# asked: the caller then decides nothing.
runner_state() {
  local json
  json=$(gh_get "actions/runners?name=$1&per_page=100") || return 1
  jq -er --arg n "$1" '
    if (.runners | type) != "array" then error("GitHub gave no runner list") else . end
    | [.runners[] | select(.name == $n)] as $r
    | if ($r | length) == 0 then "none"
      elif $r[0].busy then "busy"
      else $r[0].status end' <<<"$json"
}
