# shellcheck shell=bash
# The pinned GitHub Actions runner release (sourced by runner-release.sh and ephemeral-runner.sh); moved
# to a new release by bump-runner.sh.
RUNNER_VERSION=2.321.0
RUNNER_TARBALL=actions-runner-linux-x64-$RUNNER_VERSION.tar.gz
# SHA-256 of actions-runner-linux-x64-2.321.0.tar.gz as published with the release.
RUNNER_SHA256=ba46ba7ce3a4d7236b16fbe44419fb453bc08f866b24f04d549ec89f1722a29e
export RUNNER_VERSION RUNNER_TARBALL RUNNER_SHA256
