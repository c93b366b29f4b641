#!/usr/bin/env bash
# The history as a branch of the repository, with git only (no remote action):
#   history-branch.sh fetch   make $HISTORY a checkout of origin/$BRANCH, or an empty folder when the
#                             remote answers that the branch does not exist yet (the first publish
#                             creates it). A remote that cannot be read (authentication, network, a
#                             missing repository) is an error, exit 11: never taken for "no history yet",
#                             which would start a new history and lose the old one on the next push.
#   history-branch.sh push    commit $HISTORY and push it to $BRANCH. Exit 10 only when the push was
#                             refused because the branch moved (a race: the caller fetches again and
#                             retries); any other failure (authentication, network, a protected branch or
#                             hook refusing it) exits 12 with git's own message.
# The token goes to git as an HTTP header for this command only: it is never written to .git/config.
set -euo pipefail
: "${HISTORY:?}" "${BRANCH:?}" "${TOKEN:?set github-token to push the history branch}"
server=${GITHUB_SERVER_URL:-https://github.com}
url="$server/${GITHUB_REPOSITORY:?}.git"
auth="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$TOKEN" | base64 -w0)"
echo "::add-mask::$(printf 'x-access-token:%s' "$TOKEN" | base64 -w0)"
# A missing or wrong token must fail, not wait for a password on a terminal that is not there.
export GIT_TERMINAL_PROMPT=0
git_auth() { git -c "http.$server/.extraheader=$auth" "$@"; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT

# Prints git's message (from $err) as an error annotation and exits with $1.
fail() {
  local code=$1 what=$2
  echo "::error title=dind-bench history::$what"
  sed 's/^/  git: /' "$err" >&2
  exit "$code"
}

case "${1:-}" in
  fetch)
    # Replaces $HISTORY, so it must be an earlier checkout of the branch, an empty folder or nothing.
    if [ -e "$HISTORY" ] && [ ! -d "$HISTORY/.git" ] && [ -n "$(ls -A "$HISTORY")" ]; then
      echo "history: $HISTORY is neither empty nor a checkout of $BRANCH; refusing to replace it" >&2
      exit 2
    fi
    rm -rf "$HISTORY"
    mkdir -p "$HISTORY"
    git -C "$HISTORY" init -q
    git -C "$HISTORY" remote add origin "$url"
    # ls-remote --exit-code: 0 the branch is there, 2 the remote answered and has no such branch,
    # anything else the remote could not be read.
    set +e
    git_auth -C "$HISTORY" ls-remote --exit-code --heads origin "refs/heads/$BRANCH" >/dev/null 2>"$err"
    code=$?
    set -e
    case "$code" in
      0)
        git_auth -C "$HISTORY" fetch -q --depth=1 origin "refs/heads/$BRANCH:refs/remotes/origin/$BRANCH" 2>"$err" ||
          fail 11 "history: $BRANCH exists on $url but could not be fetched"
        git -C "$HISTORY" checkout -q -B "$BRANCH" "origin/$BRANCH"
        echo "history: $BRANCH at $(git -C "$HISTORY" rev-parse --short HEAD)"
        # A lock or staging the branch carries (committed by hand, or by an older publish) is no publish of
        # this run's: left there it would hold this publish off. Dropped here, and from the next commit.
        if [ -n "$(git -C "$HISTORY" ls-files -- .publish.lock '.publish.lock.*' .publish)" ]; then
          echo "::warning title=dind-bench history::$BRANCH carries a publish lock or staging (.publish.lock, .publish): not a lock of this run; dropped, and the next push removes it from the branch"
          git -C "$HISTORY" rm -r -q --cached --ignore-unmatch -- .publish.lock '.publish.lock.*' .publish >/dev/null
          rm -rf "$HISTORY/.publish.lock" "$HISTORY/.publish"
        fi
        ;;
      2)
        git -C "$HISTORY" checkout -q --orphan "$BRANCH"
        echo "history: branch $BRANCH does not exist yet; the first publish creates it"
        ;;
      *) fail 11 "history: cannot read $url (git exit $code): check the token's contents permission and the network" ;;
    esac
    ;;
  push)
    # A publish's staging and lock are never history: even one left by a failure is not committed, and one
    # the branch carries (tracked) is removed from it.
    git -C "$HISTORY" rm -r -q --cached --ignore-unmatch -- .publish.lock '.publish.lock.*' .publish >/dev/null
    git -C "$HISTORY" add -A -- . ':(exclude).publish' ':(exclude).publish.lock' ':(exclude).publish.lock.*'
    if git -C "$HISTORY" diff --cached --quiet; then echo "history: nothing new"; exit 0; fi
    git -C "$HISTORY" -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
      commit -q -m "history: run ${GITHUB_RUN_ID:-local} of ${GITHUB_SHA:-unknown}"
    # --porcelain: one line per ref, "!<TAB>from:to<TAB>[rejected] (reason)" when refused, on stdout.
    set +e
    status=$(git_auth -C "$HISTORY" push --porcelain origin "HEAD:refs/heads/$BRANCH" 2>"$err")
    code=$?
    set -e
    if [ "$code" -eq 0 ]; then
      echo "history: pushed $(git -C "$HISTORY" rev-parse --short HEAD) to $BRANCH"
    elif printf '%s\n' "$status" | grep -qE $'^!\t[^\t]*\t\\[rejected\\] \\((fetch first|non-fast-forward)\\)'; then
      echo "history: $BRANCH moved on $url while publishing (a race)"
      exit 10
    else
      printf '%s\n' "$status" | grep -E $'^!\t' >>"$err" || true
      why="check the token's contents write permission, branch protection and the network"
      fail 12 "history: push to $BRANCH on $url failed, and not because the branch moved (git exit $code): $why"
    fi
    ;;
  *) echo "usage: history-branch.sh fetch|push (with HISTORY, BRANCH, TOKEN, GITHUB_REPOSITORY set)" >&2; exit 2 ;;
esac
