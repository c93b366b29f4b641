#!/usr/bin/env bash
# Posts the comparison on a pull request: one comment per pull request, updated on each run. It is found
# by its author AND its hidden marker: anyone can post a comment starting with the marker, and it must
# never be the one edited. Used by the compare action (pr-number) and by the workflow's `comment` job,
# the only job that holds pull-requests: write, and only when a pull request is named.
#   GH_TOKEN   a token allowed to comment (pull-requests: write)
#   PR_NUMBER  the pull request
#   AUTHOR     the login that posts it (github-actions[bot] for the workflow's token)
#   COMMENT    the comment's Markdown file (pr-comment.md of `dind-bench compare`)
#   COMMENT_SHA256  set when the file came from another job (the workflow's `comment` job): the SHA-256 the
#              report job computed of the file it wrote. Any job of the run can upload an artifact of that
#              name, so a file that does not match, or no digest at all, is refused, never posted.
# Whoever wrote it, a body over GitHub's limit (65,536 characters) is refused.
set -euo pipefail
if ! [[ "${PR_NUMBER:-}" =~ ^[1-9][0-9]{0,9}$ ]]; then
  echo "::error title=dind-bench compare::pr-number must be a pull request number"; exit 1
fi
if [ ! -f "$COMMENT" ] || [ -L "$COMMENT" ]; then
  echo "::error title=dind-bench compare::no comment body at $COMMENT"; exit 1
fi
if [ -n "${COMMENT_SHA256+set}" ]; then
  if ! [[ "$COMMENT_SHA256" =~ ^[0-9a-f]{64}$ ]]; then
    echo "::error title=dind-bench comment::no digest of the comment from the report job: nothing is posted"; exit 1
  fi
  if [ "$(sha256sum < "$COMMENT" | cut -d' ' -f1)" != "$COMMENT_SHA256" ]; then
    echo "::error title=dind-bench comment::the comment at $COMMENT is not the one the report job wrote (SHA-256 differs): nothing is posted"
    exit 1
  fi
fi
chars=$(LC_ALL=C.UTF-8 wc -m < "$COMMENT")
if [ "$chars" -gt 65536 ]; then
  echo "::error title=dind-bench compare::the comment is longer than 65536 characters ($chars): nothing is posted"; exit 1
fi
marker='<!-- dind-bench comparison -->'
body="$(printf '%s\n%s\n' "$marker" "$(cat "$COMMENT")")"
id=$(MARKER="$marker" gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" \
  --jq '.[] | select(.user.login == env.AUTHOR and (.body | startswith(env.MARKER))) | .id' | head -n1)
if [ -n "$id" ]; then gh api -X PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -f body="$body" >/dev/null
else gh api -X POST "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" -f body="$body" >/dev/null; fi
echo "commented on #$PR_NUMBER"
