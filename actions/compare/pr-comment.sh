#!/usr/bin/env bash
# Posts the comparison on a pull request: one comment per pull request, updated on each run. It is found
# by its author AND its hidden marker: anyone can post a comment starting with the marker, and it must
# never be the one edited. Used by the compare action (pr-number) and by the workflow's `comment` job,
# the only job that holds pull-requests: write, and only when a pull request is named.
#   GH_TOKEN   a token allowed to comment (pull-requests: write)
#   PR_NUMBER  the pull request
#   AUTHOR     the login that posts it (github-actions[bot] for the workflow's token)
#   COMMENT    the comment's Markdown file (pr-comment.md of `dind-bench compare`)
set -euo pipefail
if ! [[ "${PR_NUMBER:-}" =~ ^[1-9][0-9]{0,9}$ ]]; then
  echo "::error title=dind-bench compare::pr-number must be a pull request number"; exit 1
fi
[ -f "$COMMENT" ] || { echo "::error title=dind-bench compare::no comment body at $COMMENT"; exit 1; }
marker='<!-- dind-bench comparison -->'
body="$(printf '%s\n%s\n' "$marker" "$(cat "$COMMENT")")"
id=$(MARKER="$marker" gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" \
  --jq '.[] | select(.user.login == env.AUTHOR and (.body | startswith(env.MARKER))) | .id' | head -n1)
if [ -n "$id" ]; then gh api -X PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -f body="$body" >/dev/null
else gh api -X POST "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" -f body="$body" >/dev/null; fi
echo "commented on #$PR_NUMBER"
