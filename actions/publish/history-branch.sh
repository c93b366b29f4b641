#!/usr/bin/env bash
# The history as a branch of the repository, with git only (no remote action):
#   history-branch.sh fetch   make $HISTORY a checkout of origin/$BRANCH (an empty folder when the
#                             branch does not exist yet: the first publish creates it)
#   history-branch.sh push    commit $HISTORY and push it to $BRANCH; exit 10 when the push was refused
#                             because the branch moved (the caller fetches again and retries)
# The token goes to git as an HTTP header for this command only: it is never written to .git/config.
set -euo pipefail
: "${HISTORY:?}" "${BRANCH:?}" "${TOKEN:?set github-token to push the history branch}"
server=${GITHUB_SERVER_URL:-https://github.com}
url="$server/${GITHUB_REPOSITORY:?}.git"
auth="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$TOKEN" | base64 -w0)"
echo "::add-mask::$(printf 'x-access-token:%s' "$TOKEN" | base64 -w0)"
git_auth() { git -c "http.$server/.extraheader=$auth" "$@"; }

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
    if git_auth -C "$HISTORY" fetch -q --depth=1 origin "refs/heads/$BRANCH:refs/remotes/origin/$BRANCH" 2>/dev/null; then
      git -C "$HISTORY" checkout -q -B "$BRANCH" "origin/$BRANCH"
      echo "history: $BRANCH at $(git -C "$HISTORY" rev-parse --short HEAD)"
    else
      git -C "$HISTORY" checkout -q --orphan "$BRANCH"
      echo "history: branch $BRANCH does not exist yet; the first publish creates it"
    fi
    ;;
  push)
    git -C "$HISTORY" add -A
    if git -C "$HISTORY" diff --cached --quiet; then echo "history: nothing new"; exit 0; fi
    git -C "$HISTORY" -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
      commit -q -m "history: run ${GITHUB_RUN_ID:-local} of ${GITHUB_SHA:-unknown}"
    if git_auth -C "$HISTORY" push -q origin "HEAD:refs/heads/$BRANCH"; then
      echo "history: pushed $(git -C "$HISTORY" rev-parse --short HEAD) to $BRANCH"
    else
      exit 10
    fi
    ;;
  *) echo "usage: history-branch.sh fetch|push (with HISTORY, BRANCH, TOKEN, GITHUB_REPOSITORY set)" >&2; exit 2 ;;
esac
