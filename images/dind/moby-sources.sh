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
# -n: resolve and download everything the build needs, compile nothing.
go install -n -tags "netgo osusergo exclude_graphdriver_btrfs exclude_graphdriver_devicemapper exclude_disk_quota" \
  "github.com/moby/moby/v2/cmd/dockerd@$MOBY_VERSION" "github.com/moby/moby/v2/cmd/docker-proxy@$MOBY_VERSION" \
  > /dev/null 2>&1
go install -n -tags seccomp "github.com/opencontainers/runc@$RUNC_VERSION" > /dev/null 2>&1
go mod download "golang.org/toolchain@v0.0.1-$GO_TOOLCHAIN.linux-amd64"
echo "module sources in $DIR/cache/download"
