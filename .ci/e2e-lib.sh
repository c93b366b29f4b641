# shellcheck shell=bash
# What the end-to-end scripts under act share (.ci/act-e2e.sh, consumer-e2e.sh, fresh-runner-e2e.sh,
# readme-callers-e2e.sh): a temporary folder removed at the end (kept with DIND_BENCH_KEEP_ACT_OUT=1), the
# owner label that marks everything dind-bench creates in this run, the leftover check on it, and how a
# failure is told; below, what a caller repository of the released suite needs.
# Sourced, after `set -euo pipefail`; the caller names itself: e2e_begin "act e2e" act.

# e2e_begin NAME PREFIX: sets tmp (a new /tmp/dind-bench-PREFIX.* folder) and DIND_BENCH_OWNER (kept if
# already set), and removes tmp on exit. A script with more to undo calls e2e_cleanup from its own trap.
e2e_begin() {
  e2e_name=$1
  tmp=$(mktemp -d "/tmp/dind-bench-$2.XXXXXX")
  # Everything dind-bench creates carries this owner label (act passes the environment on to its jobs),
  # so the leftover check sees this run's objects only, not those of other runs on a shared engine.
  export DIND_BENCH_OWNER=${DIND_BENCH_OWNER:-$2-e2e-$$-$RANDOM}
  trap e2e_cleanup EXIT
}

e2e_cleanup() {
  if [ -z "${DIND_BENCH_KEEP_ACT_OUT:-}" ]; then rm -rf "$tmp"; else echo "$e2e_name: outputs kept in $tmp"; fi
}

# The containers, volumes and networks of this run still on the engine.
owned() {
  { docker ps -aq --filter "label=dind-bench.owner=$DIND_BENCH_OWNER"
    docker volume ls -q --filter "label=dind-bench.owner=$DIND_BENCH_OWNER"
    docker network ls -q --filter "label=dind-bench.owner=$DIND_BENCH_OWNER"; } | sort
}

# fail MESSAGE...: what failed, what dind-bench itself said in act's log (its errors name the step), then
# the end of that log.
fail() {
  echo "$e2e_name: FAILED: $*" >&2
  if [ -f "$tmp/act.log" ]; then
    grep -E "\\| (dind-bench: |::error)" "$tmp/act.log" | tail -n 20 >&2 || true
    tail -n 60 "$tmp/act.log" >&2
  fi
  exit 1
}

# copy_checkout DIR: this checkout's tracked and new files, nothing git ignores (no node_modules), as
# GitHub would download a tag.
copy_checkout() {
  mkdir -p "$1"
  git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -C "$1" -xf -
}

# What a caller repository under act needs (consumer-e2e.sh, readme-callers-e2e.sh): the suite released,
# GitHub's downloads of it, its OIDC token, act's offline settings and a dispatch's payload.

# git_suite ARGS...: git in the suite's repository ($tmp/suite).
git_suite() { git -C "$tmp/suite" -c user.name=release -c user.email=release@localhost "$@"; }

# release_suite: the suite as a repository ($tmp/suite) made from this checkout's files, released by
# docs/releasing.md's step 3 (run here on a local clone): v1.0.0 and the moving v1, annotated, on one commit.
# Sets released to that commit.
release_suite() {
  copy_checkout "$tmp/suite"
  [ ! -e "$tmp/suite/node_modules" ] || fail "the suite copy must not carry node_modules"
  git_suite init -q -b main
  git_suite add -A
  git_suite commit -q -m "Release 1.0.0"
  git_suite tag -a v1.0.0 -m "dind-bench 1.0.0"
  git_suite tag -fa v1 -m "dind-bench 1.0.0" "v1.0.0^{}"
  # shellcheck disable=SC2034 # read by the script that sourced this file
  released=$(git_suite rev-parse "v1^{commit}")
}

# suite_at REF: what GitHub downloads for a reference of the suite, the files at REF without .git, in
# $tmp/at-REF (served to act by --local-repository).
suite_at() {
  mkdir -p "$tmp/at-$1"
  git_suite archive "$1" | tar -C "$tmp/at-$1" -xf -
}

# oidc_stand_in REF SHA: GitHub's OIDC token service, stood in on loopback: a token whose claims name the
# called workflow at REF and the commit REF resolves to (unsigned: the workflow reads the claims of its own
# runner's token). Sets oidc_url; oidc_stop ends it.
oidc_stand_in() {
  local ref=$1 sha=$2 claims
  claims=$(jq -nc --arg w "dind-bench/dind-bench/.github/workflows/reusable-bench.yml@$ref" --arg s "$sha" \
    '{job_workflow_ref: $w, job_workflow_sha: $s, aud: "dind-bench"}')
  python3 - "$claims" "$tmp/oidc-port" <<'PY' &
import base64, http.server, json, sys
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
token = ".".join([b64(b'{"alg":"none"}'), b64(sys.argv[1].encode()), ""])
class Token(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.headers.get("Authorization") == "bearer stand-in" and "audience=dind-bench" in self.path
        body = json.dumps({"value": token} if ok else {"message": "refused"}).encode()
        self.send_response(200 if ok else 403); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
server = http.server.HTTPServer(("127.0.0.1", 0), Token)
open(sys.argv[2], "w").write(str(server.server_port))
server.serve_forever()
PY
  oidc_pid=$!
  for _ in $(seq 1 50); do [ -s "$tmp/oidc-port" ] && break; sleep 0.1; done
  [ -s "$tmp/oidc-port" ] || fail "the OIDC stand-in did not start"
  # shellcheck disable=SC2034 # read by the script that sourced this file
  oidc_url="http://127.0.0.1:$(cat "$tmp/oidc-port")/token?api-version=2.0"
}
oidc_stop() {
  if [ -n "${oidc_pid:-}" ]; then
    kill "$oidc_pid" 2>/dev/null || true
    wait "$oidc_pid" 2>/dev/null || true
    oidc_pid=
    rm -f "$tmp/oidc-port"
  fi
}

# act_offline_args: sets act_args, act's offline settings for a caller of the released suite: jobs on this
# host (standing in for GitHub-hosted runners too, as .actrc says to the jobs holding write tokens), the
# suite's stand-in for every remote action it pins, the suite's repository for the workflow's fetch of its
# own commit, v1 served from $tmp/at-v1, and the OIDC stand-in's request token.
act_offline_args() {
  act_args=(--platform self-hosted=-self-hosted --platform ubuntu-latest=-self-hosted --no-cache-server
    --env RUNNER_ENVIRONMENT=github-hosted
    --action-cache-path "$tmp/act" --env "DIND_BENCH_SUITE_GIT=file://$tmp/suite"
    --env ACTIONS_ID_TOKEN_REQUEST_TOKEN=stand-in
    --local-repository "dind-bench/dind-bench@v1=$tmp/at-v1")
  local spec
  while read -r spec; do
    act_args+=(--local-repository "${spec%%=*}=$tmp/at-v1/.github/act/offline-action")
  done < <(sed -n 's/^--local-repository \(.*=\.github\/act\/offline-action\)$/\1/p' .actrc)
}

# dispatch_event FILE NAME=VALUE...: a dispatch's payload as GitHub sends it: the repository's default
# branch is named (act, with no remote, would say master), which the reusable workflow's guard admits a
# dispatch on; act then takes the inputs from the payload only.
dispatch_event() {
  local file=$1
  shift
  jq -n --args '{ref: "refs/heads/main", repository: {default_branch: "main"},
    inputs: ($ARGS.positional | map(capture("^(?<k>[^=]+)=(?<v>.*)$") | {key: .k, value: .v}) | from_entries)}' "$@" > "$file"
}

# commit_repo DIR MESSAGE: DIR as a git repository of its own on main, everything in it committed.
commit_repo() {
  git -C "$1" init -q -b main
  git -C "$1" -c user.name=caller -c user.email=caller@localhost add -A
  git -C "$1" -c user.name=caller -c user.email=caller@localhost commit -q -m "$2"
}
