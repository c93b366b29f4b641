#!/bin/sh
# The team's build, as its CI runs it: vet every package, then the API and the integration test's binary,
# static (CGO_ENABLED=0) for a scratch image, into OUT. The modules come from vendor/ (GOFLAGS=-mod=vendor):
# nothing is fetched. Go's build cache (GOCACHE) is a BuildKit cache mount: a warm one skips what an earlier
# build compiled (the standard library built without cgo, the vendored driver, unchanged packages).
set -eu
out=$1
# The module proxy's credential (the build secret `netrc`, mounted where the go command reads it): the go
# command sends it to GOPROXY whenever a module is not vendored; the build refuses to start without an entry
# for the proxy, as a job that refreshes vendor/ would fail later. It prints no part of the file.
if ! awk -v host="$MODULE_PROXY" '
  { for (i = 1; i <= NF; i++) t[n++] = $i }
  END {
    for (i = 0; i < n; i++) {
      if (t[i] == "machine") m = t[++i]
      else if (t[i] == "login" && m == host) l = 1
      else if (t[i] == "password" && m == host) p = 1
    }
    exit !(l && p)
  }' /root/.netrc; then
  echo "build.sh: the build secret netrc has no machine $MODULE_PROXY with a login and a password" >&2
  exit 1
fi
go version
go vet ./...
go build -o "$out/api" ./cmd/api
go test -c -o "$out/integration.test" ./integration
ls -l "$out"
