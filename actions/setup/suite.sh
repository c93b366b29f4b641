#!/usr/bin/env bash
# Makes the suite at $SUITE (the root of the dind-bench repository an action came from) ready to run:
# its npm dependencies installed from package-lock.json when they are not there yet, `dind-bench` on the
# PATH of later steps, and DIND_BENCH_SUITE (its path), DIND_BENCH_SUITE_REF, DIND_BENCH_SUITE_COMMIT and
# DIND_BENCH_SUITE_REPOSITORY in their environment. Every action runs it first, so each works alone when
# called as OWNER/dind-bench/actions/NAME@v1 by a repository that has nothing of dind-bench checked out.
# Offline (act, or DIND_BENCH_NPM_OFFLINE=true) npm answers from its cache only.
set -euo pipefail
# Run as `./.dind-bench-suite/actions/NAME` by the reusable workflow (src/workflow/reusable.js), an action
# has no ref or repository of its own: the workflow's, which its fetch step put in the environment, are.
SUITE_REF=${SUITE_REF:-${DIND_BENCH_WORKFLOW_REF:-}}
SUITE_REPOSITORY=${SUITE_REPOSITORY:-${DIND_BENCH_WORKFLOW_REPOSITORY:-}}
suite=$(cd "${SUITE:?SUITE must be the dind-bench repository root}" && pwd)
cd "$suite"
if [ ! -f package-lock.json ] || [ ! -x bin/dind-bench.js ]; then
  echo "::error title=dind-bench suite::$suite is not a dind-bench repository" \
    "(no package-lock.json or bin/dind-bench.js)"
  exit 1
fi
command -v node >/dev/null || {
  echo "::error title=dind-bench suite::node is not installed" \
    "(fix: use the setup action, or provision the runner with runners/common/provision.sh)"
  exit 1
}

# Another copy of the same suite already installed in this job (act gives every action its own copy;
# GitHub downloads the repository once per job): the same package-lock.json means the same dependency
# tree, so that one is used instead of installing it again.
earlier=${DIND_BENCH_SUITE:-}
if [ ! -e node_modules ] && [ -n "$earlier" ] && [ "$earlier" != "$suite" ] && [ -d "$earlier/node_modules" ] \
  && cmp -s package-lock.json "$earlier/package-lock.json"; then
  ln -s "$earlier/node_modules" node_modules
fi
# npm ls exits non-zero when a dependency of package.json is missing or does not satisfy it.
if npm ls --omit=dev --depth=0 >/dev/null 2>&1; then
  echo "dind-bench suite: $suite (npm dependencies present${earlier:+, from $earlier if linked})"
else
  offline=()
  if [ -n "${ACT:-}" ] || [ "${DIND_BENCH_NPM_OFFLINE:-}" = true ]; then offline=(--offline); fi
  # --ignore-scripts: no dependency's install script runs, also in the jobs that hold a write token
  # (publish, the PR comment). None is needed: the ones with scripts (ssh2, cpu-features, protobufjs) are
  # optional native speed-ups or version notices, and dind-bench talks to engines over a unix socket.
  echo "dind-bench suite: $suite: npm ci --omit=dev --ignore-scripts ${offline[*]}"
  npm ci --omit=dev --ignore-scripts "${offline[@]}" --no-audit --no-fund --loglevel=error
fi

# The suite's own commit, for results' suite.commit (src/results/provenance.js): from its checkout when
# $SUITE is the top of one (bench.yml's own checkout; never the caller's repository holding a copy of the
# suite in a subfolder), else from the action's ref when that is a commit SHA (`uses: ...@<sha>`). A tag
# or branch ref says no commit: left empty rather than guessed.
suite_commit=
top=$(git -C "$suite" rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(pwd -P)" ]; then
  suite_commit=$(git -C "$suite" rev-parse --verify --quiet HEAD 2>/dev/null || true)
fi
if ! [[ "$suite_commit" =~ ^[0-9a-f]{40}$ ]]; then
  suite_commit=
  if [[ "${SUITE_REF:-}" =~ ^[0-9a-f]{40}$ ]]; then suite_commit=$SUITE_REF; fi
fi
echo "dind-bench suite: commit ${suite_commit:-unknown (no git checkout of its own and no commit ref)}"

if [ -n "${GITHUB_ENV:-}" ]; then
  {
    echo "DIND_BENCH_SUITE=$suite"
    echo "DIND_BENCH_SUITE_COMMIT=$suite_commit"
    # Which dind-bench ran, as opposed to the caller's repository and commit (GITHUB_REPOSITORY, GITHUB_SHA).
    echo "DIND_BENCH_SUITE_REF=${SUITE_REF:-}"
    echo "DIND_BENCH_SUITE_REPOSITORY=${SUITE_REPOSITORY:-}"
  } >> "$GITHUB_ENV"
fi
if [ -n "${GITHUB_PATH:-}" ]; then echo "$suite/bin" >> "$GITHUB_PATH"; fi
