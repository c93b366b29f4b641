# shellcheck shell=bash
# BROKER SIDE, sourced by the brokers, jit-config.sh and deregister.sh: GitHub's API with the broker's
# credential, what GitHub says about a runner registration (the one source of evidence about a runner
# that a job cannot forge: a job controls its whole machine, not GitHub), and the check that the runners
# sit behind the barrier SECURITY.md relies on before any configuration is issued.
#
#   RUNNER_SCOPE       the organisation the runners register in. A repository (owner/repo) only with
#                      RUNNER_ALLOW_REPO_SCOPE=1: repository runners have no runner group, so every
#                      workflow of the repository, on any branch, reaches them
#   RUNNER_GROUP_ID    the organisation's runner group for them; never 1, the Default group, unless
#                      RUNNER_ALLOW_DEFAULT_GROUP=1
#   RUNNER_REPOSITORY  owner/repo whose .github/workflows/bench.yml the group admits, at refs/heads/main and
#                      refs/heads/bench-pr; or RUNNER_WORKFLOWS, the admitted workflow refs, comma-separated
#                      (callers of the reusable workflow: ORG/dind-bench/.github/workflows/reusable-bench.yml@SHA
#                      of the organisation's fork). Each listed workflow is read at its ref (Contents: read)
#                      and parsed (workflow-check.py: python3 with PyYAML on the broker's host): it must
#                      define the self-hosted jobs, and a reusable one must refuse fork events itself (its
#                      guard job) and be listed at a commit SHA
#   RUNNER_ALLOW_PUBLIC_REPOS=1  accept a group that public repositories may use (a public repository)
#
# The credential, read from the broker's host only (a file only the broker's user can read; never a
# GitHub secret, and the broker refuses to run inside a GitHub Actions job):
#   RUNNER_APP_ID, RUNNER_APP_INSTALLATION_ID, RUNNER_APP_KEY_FILE  a GitHub App with the organisation
#                      permission "Self-hosted runners: read and write" and nothing else (preferred);
#                      the broker mints a one-hour installation token limited to that permission
#   RUNNER_PAT_FILE    or a fine-grained personal access token with that permission only

# Refuses (returns 1, saying what to change) a credential that does not come from the broker's host, or
# that someone other than the broker's user can read.
check_credential() {
  local var file owner mode
  if [ "${GITHUB_ACTIONS:-}" = true ]; then
    echo "runner broker: refusing to run in a GitHub Actions job (GITHUB_ACTIONS=true): its credential would be a GitHub secret, which any workflow someone with write access pushes can read. Run the broker on its own host, with the credential in a file there (runners/README.md)" >&2
    return 1
  fi
  if [ -n "${RUNNER_APP_ID:-}" ]; then
    if [ -z "${RUNNER_APP_INSTALLATION_ID:-}" ] || [ -z "${RUNNER_APP_KEY_FILE:-}" ]; then
      echo "runner broker: RUNNER_APP_ID is set: set RUNNER_APP_INSTALLATION_ID and RUNNER_APP_KEY_FILE (the App's private key) too" >&2
      return 1
    fi
    var=RUNNER_APP_KEY_FILE file=$RUNNER_APP_KEY_FILE
  elif [ -n "${RUNNER_PAT_FILE:-}" ]; then
    var=RUNNER_PAT_FILE file=$RUNNER_PAT_FILE
  else
    echo "runner broker: no credential: set RUNNER_APP_ID, RUNNER_APP_INSTALLATION_ID and RUNNER_APP_KEY_FILE (a GitHub App, preferred) or RUNNER_PAT_FILE (runners/README.md)" >&2
    return 1
  fi
  if [ -L "$file" ] || [ ! -f "$file" ]; then
    echo "runner broker: $var=$file is not a regular file" >&2
    return 1
  fi
  read -r owner mode < <(stat -c '%u %a' "$file")
  if [ "$owner" != "$(id -u)" ] || ((8#$mode & 8#077)); then
    echo "runner broker: $var=$file (owner uid $owner, mode $mode) must belong to the broker's user and be readable by it alone: chown $(id -un) '$file' && chmod 600 '$file'" >&2
    return 1
  fi
}

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

# An installation token of the GitHub App, limited to the runner permission, kept (mode 0600, the
# broker's cache folder) until ten minutes before it expires, so a pass does not mint one per call.
app_token() {
  local dir cache now until token jwt head claims permission json
  dir=${XDG_CACHE_HOME:-$HOME/.cache}/dind-bench-broker
  (umask 077 && mkdir -p "$dir")
  cache="$dir/app-token-$RUNNER_APP_ID-$RUNNER_APP_INSTALLATION_ID"
  now=$(date +%s)
  if [ -f "$cache" ] && [ ! -L "$cache" ] && read -r until token <"$cache" && [[ "$until" =~ ^[0-9]+$ ]] &&
    [ "$until" -gt "$now" ] && [ -n "$token" ]; then
    printf '%s\n' "$token"
    return
  fi
  head=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
  claims=$(jq -cjn --argjson now "$now" --arg iss "$RUNNER_APP_ID" '{iat: ($now - 60), exp: ($now + 540), iss: $iss}' | b64url)
  jwt="$head.$claims.$(printf '%s.%s' "$head" "$claims" | openssl dgst -sha256 -sign "$RUNNER_APP_KEY_FILE" -binary | b64url)"
  # An organisation's runners: also read access to contents, to read the workflows the group selects
  # (workflow_problems).
  case "$RUNNER_SCOPE" in
    */*) permission='"administration":"write"' ;;
    *) permission='"organization_self_hosted_runners":"write","contents":"read"' ;;
  esac
  json=$(printf 'header = "Authorization: Bearer %s"\n' "$jwt" |
    curl -fsS -K - -X POST -H 'Accept: application/vnd.github+json' \
      --data "{\"permissions\":{$permission}}" \
      "https://api.github.com/app/installations/$RUNNER_APP_INSTALLATION_ID/access_tokens") || {
    echo "runner broker: GitHub gave the App $RUNNER_APP_ID no installation token (installation $RUNNER_APP_INSTALLATION_ID; does the App have the permissions ${permission//\"/}?)" >&2
    return 1
  }
  token=$(jq -er .token <<<"$json")
  (umask 077 && printf '%s %s\n' "$((now + 3000))" "$token" >"$cache.tmp" && mv "$cache.tmp" "$cache")
  printf '%s\n' "$token"
}

# gh_api METHOD PATH [BODY]: https://api.github.com/PATH with the broker's credential. The token goes to
# curl on stdin (a config "file"), never on a command line other processes can read.
gh_api() {
  local token data=()
  check_credential || return 1
  if [ -n "${RUNNER_APP_ID:-}" ]; then token=$(app_token) || return 1; else token=$(cat "$RUNNER_PAT_FILE"); fi
  if [ -n "${3:-}" ]; then data=(--data "$3"); fi
  printf 'header = "Authorization: Bearer %s"\n' "$token" |
    curl -fsS -K - -X "$1" -H 'Accept: application/vnd.github+json' "${data[@]}" "https://api.github.com/$2"
}

# The API path of the runners' scope: orgs/ORG, or repos/OWNER/REPO.
scope_endpoint() {
  case "$RUNNER_SCOPE" in */*) echo "repos/$RUNNER_SCOPE" ;; *) echo "orgs/$RUNNER_SCOPE" ;; esac
}

# GET https://api.github.com/<scope endpoint>/PATH.
gh_get() { gh_api GET "$(scope_endpoint)/$1"; }

# The workflow refs the runner group may admit, comma-separated.
runner_workflows() {
  if [ -n "${RUNNER_WORKFLOWS:-}" ]; then
    echo "$RUNNER_WORKFLOWS"
  elif [[ "${RUNNER_REPOSITORY:-}" =~ ^[^/]+/[^/]+$ ]]; then
    echo "$RUNNER_REPOSITORY/.github/workflows/bench.yml@refs/heads/main,$RUNNER_REPOSITORY/.github/workflows/bench.yml@refs/heads/bench-pr"
  else
    echo "runner broker: set RUNNER_REPOSITORY=owner/repo (the repository whose bench.yml the runner group admits) or RUNNER_WORKFLOWS (the admitted workflow refs, comma-separated)" >&2
    return 1
  fi
}

# The fork barrier, checked with GitHub before any configuration is issued. Returns 1 after saying what
# is wrong, where, and what to change, unless the runners register in an organisation runner group that:
#   - is not the Default group (RUNNER_ALLOW_DEFAULT_GROUP=1 accepts it);
#   - is open to selected repositories only;
#   - admits selected workflows only, each one of runner_workflows (main's and bench-pr's bench.yml), each
#     defining self-hosted jobs (a reusable one with dind-bench's guard job: workflow_problems);
#   - does not allow public repositories (RUNNER_ALLOW_PUBLIC_REPOS=1 accepts it).
# A repository scope passes only with RUNNER_ALLOW_REPO_SCOPE=1, with a warning every time.
check_runner_setup() {
  local workflows json problems
  case "$RUNNER_SCOPE" in
    */*)
      if [ "${RUNNER_ALLOW_REPO_SCOPE:-}" != 1 ]; then
        echo "runner broker: RUNNER_SCOPE=$RUNNER_SCOPE is a repository. Repository runners have no runner group, so any workflow of the repository on any branch (an approved fork pull request's too) can send a job to them. Register them in the organisation: RUNNER_SCOPE=${RUNNER_SCOPE%%/*}, RUNNER_REPOSITORY=$RUNNER_SCOPE and RUNNER_GROUP_ID of a group restricted to bench.yml (runners/README.md). To accept repository runners anyway, set RUNNER_ALLOW_REPO_SCOPE=1 (SECURITY.md)" >&2
        return 1
      fi
      echo "runner broker: warning: repository runners (RUNNER_SCOPE=$RUNNER_SCOPE, RUNNER_ALLOW_REPO_SCOPE=1): no runner group limits which workflows reach them (SECURITY.md)" >&2
      return 0
      ;;
  esac
  if ! [[ "${RUNNER_GROUP_ID:-}" =~ ^[0-9]+$ ]]; then
    echo "runner broker: RUNNER_GROUP_ID is '${RUNNER_GROUP_ID:-}': set it to the id of the organisation runner group for these runners (Settings → Actions → Runner groups: the number at the end of the group's address)" >&2
    return 1
  fi
  if [ "$RUNNER_GROUP_ID" = 1 ] && [ "${RUNNER_ALLOW_DEFAULT_GROUP:-}" != 1 ]; then
    echo "runner broker: RUNNER_GROUP_ID=1 is the organisation's Default group, where runners go unless a group is chosen. Create a group for these runners restricted to bench.yml (SECURITY.md, \"Workflows and runners\") and set RUNNER_GROUP_ID to its id; to use the Default group anyway, restrict it the same way and set RUNNER_ALLOW_DEFAULT_GROUP=1" >&2
    return 1
  fi
  workflows=$(runner_workflows) || return 1
  if ! json=$(gh_api GET "orgs/$RUNNER_SCOPE/actions/runner-groups/$RUNNER_GROUP_ID"); then
    echo "runner broker: could not read runner group $RUNNER_GROUP_ID of the organisation $RUNNER_SCOPE (does it exist, and may the credential read it: Self-hosted runners: read and write?)" >&2
    return 1
  fi
  problems=$(jq -r --arg allowed "$workflows" --arg public "${RUNNER_ALLOW_PUBLIC_REPOS:-}" \
    --arg default "${RUNNER_ALLOW_DEFAULT_GROUP:-}" --arg org "$RUNNER_SCOPE" '
    ($allowed | split(",") | map(select(. != ""))) as $ok
    | "runner group \(.id) (\(.name)) of \($org)" as $g
    | "Settings → Actions → Runner groups → \(.name)" as $where
    | (if .default == true and $default != "1" then
         "\($g) is the Default group: create a group restricted to bench.yml and set RUNNER_GROUP_ID to it, or set RUNNER_ALLOW_DEFAULT_GROUP=1"
       else empty end),
      (if .visibility != "selected" then
         "\($g): Repository access is \(.visibility // "unknown") (visibility). In \($where), set Repository access to Selected repositories: this repository only"
       else empty end),
      (if .restricted_to_workflows != true then
         "\($g) admits every workflow (restricted_to_workflows is \(.restricted_to_workflows)). In \($where), set Workflow access to Selected workflows: \($ok | join(", "))"
       elif ((.selected_workflows // []) | length) == 0 then
         "\($g) lists no selected workflow. In \($where), list under Selected workflows: \($ok | join(", "))"
       else
         (.selected_workflows[] | select(. as $w | any($ok[]; . == $w) | not)
          | "\($g) admits the workflow \(.), which is not one of \($ok | join(", ")). In \($where), remove it from Selected workflows (or name it in RUNNER_WORKFLOWS if it should reach these runners)")
       end),
      (if .allows_public_repositories != false and $public != "1" then
         "\($g) allows public repositories (allows_public_repositories is \(.allows_public_repositories)). In \($where), turn off Allow public repositories; if this repository is public and should use the group, set RUNNER_ALLOW_PUBLIC_REPOS=1 (SECURITY.md)"
       else empty end)' <<<"$json") || {
    echo "runner broker: GitHub's answer for runner group $RUNNER_GROUP_ID is not a runner group" >&2
    return 1
  }
  if [ -z "$problems" ]; then
    problems=$(jq -r '.selected_workflows[]' <<<"$json" | workflow_problems "$(jq -r '"runner group \(.id) (\(.name)) of "' <<<"$json")$RUNNER_SCOPE")
  fi
  if [ -n "$problems" ]; then
    mapfile -t problems <<<"$problems"
    { echo "runner broker: refusing to issue runner configurations:"; printf '  - %s\n' "${problems[@]}"; } >&2
    return 1
  fi
}

# Reads each selected workflow (OWNER/REPO/.github/workflows/FILE@REF, one a line on stdin) at its ref and
# prints a problem for each that cannot get a runner or would let a fork reach one. GitHub admits to a
# group only the jobs defined in the workflows it selects, never those of a workflow one of them calls: a
# caller of reusable-bench.yml listed there gets no runner (list the reusable workflow itself, from your
# organisation's fork of dind-bench at a commit SHA), and a listed reusable workflow admits every workflow
# that calls it, on any ref, a fork's pull request's too, so it must refuse such events itself (dind-bench's
# guard job). What a workflow is, is read from its structure (workflow-check.py, parsed YAML), never from a
# text marker. A reusable one is listed at a commit SHA only: a branch or a tag can be moved to code without
# the guard. Needs read access to the workflow's repository (Contents: read); unreadable is refused.
workflow_problems() {
  local group=$1 w repo file ref text kind why
  local check
  check="$(dirname "${BASH_SOURCE[0]}")/workflow-check.py"
  while IFS= read -r w; do
    if ! [[ "$w" =~ ^([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/(\.github/workflows/[A-Za-z0-9_./-]+)@([A-Za-z0-9_./-]+)$ ]]; then
      echo "$group admits '$w', which is not OWNER/REPO/.github/workflows/FILE@REF"
      continue
    fi
    repo=${BASH_REMATCH[1]} file=${BASH_REMATCH[2]} ref=${BASH_REMATCH[3]}
    if ! text=$(gh_api GET "repos/$repo/contents/$file?ref=$(jq -rn --arg r "$ref" '$r | @uri')" 2>/dev/null |
      jq -er 'select(.type == "file" and .encoding == "base64") | .content' | base64 -d); then
      # Not at that ref (a bench-pr branch not pushed yet) admits no job now, and the next configuration
      # checks again; a repository the credential cannot read is refused (GitHub answers 404 for both).
      if gh_api GET "repos/$repo" >/dev/null 2>&1; then continue; fi
      echo "$group admits $w, but the broker cannot read $repo (give the credential Contents: read on it): what that workflow runs cannot be checked"
      continue
    fi
    if ! kind=$(python3 "$check" <<<"$text" 2>/dev/null); then
      echo "$group admits $w, whose structure the broker cannot check: install python3 with PyYAML (Debian: python3-yaml) on the broker's host"
      continue
    fi
    why=${kind#*$'\t'} kind=${kind%%$'\t'*}
    case "$kind" in
      caller)
        echo "$group admits $w, which defines no self-hosted job: GitHub gives a group's runners only to jobs defined in a selected workflow, not to the workflows it calls. List the workflow that defines them instead (a caller of reusable-bench.yml: that reusable workflow, from your organisation's fork of dind-bench at a commit SHA; runners/README.md)" ;;
      plain) ;;
      guarded)
        if ! [[ "$ref" =~ ^[0-9a-f]{40}$ ]]; then
          echo "$group admits $w, a reusable workflow at $ref, a ref that can be moved (a branch or a tag) to code without the guard: list it at a commit SHA (OWNER/REPO/$file@<40-hex commit>), the one you reviewed"
        fi ;;
      writer)
        echo "$group admits $w, whose $why: a runner of this group carrying a GitHub-hosted label (ubuntu-*, windows-*, macos-*) would get that job and its token. Open every job holding a write permission with dind-bench's step 'GitHub-hosted runner only' (SECURITY.md, Workflows and runners)" ;;
      unguarded)
        echo "$group admits $w, a reusable workflow that does not refuse the events a fork can cause (no dind-bench guard job: $why): every workflow that calls it, a fork's pull request's too, would reach these runners. List a dind-bench release with the guard job, at a commit SHA" ;;
      *)
        echo "$group admits $w, which is not a workflow the broker can read ($why)" ;;
    esac
  done
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
