#!/bin/sh
# Fetches, with this host's Go and through its Go module proxy, every module that Dockerfile.moby
# compiles (dockerd from github.com/moby/moby/v2, runc, and the Go toolchain the moby module asks for)
# into a module cache folder. The image build then reads that folder as a file-based module proxy:
# sources checked against the checksum database here, compiled at image build time there, and the
# build container needs no network. Usage: moby-sources.sh DIR (then pass DIR/cache/download as the
# build context `gomodcache`; see docs/environments.md).
set -eu
DIR=${1:?usage: moby-sources.sh DIR}
MOBY_VERSION=${MOBY_VERSION:-v2.0.0-beta.24}
RUNC_VERSION=${RUNC_VERSION:-v1.5.1}
GO_TOOLCHAIN=${GO_TOOLCHAIN:-go1.26.3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GOMODCACHE="$DIR" GOFLAGS=-mod=mod
# The toolchain is fetched for the platform the image is built for: this host's, unless told otherwise
# (GOOS/GOARCH as Go reads them, e.g. GOARCH=arm64 for an arm64 image built here).
GOOS=$(go env GOOS)
GOARCH=$(go env GOARCH)
# Runs one `go install -n` (resolve and download everything the build needs, compile nothing). Its
# build plan goes to a log, not the terminal; on failure the log's end is shown and the script stops.
plan() {
  log="$work/go-install.log"
  if ! go install -n "$@" > "$log" 2>&1; then
    echo "moby-sources.sh: go install -n $* failed:" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
}
plan -tags "netgo osusergo exclude_graphdriver_btrfs exclude_graphdriver_devicemapper exclude_disk_quota" \
  "github.com/moby/moby/v2/cmd/dockerd@$MOBY_VERSION" "github.com/moby/moby/v2/cmd/docker-proxy@$MOBY_VERSION"
plan -tags seccomp "github.com/opencontainers/runc@$RUNC_VERSION"
go mod download "golang.org/toolchain@v0.0.1-$GO_TOOLCHAIN.$GOOS-$GOARCH"
echo "module sources for $GOOS/$GOARCH in $DIR/cache/download"
