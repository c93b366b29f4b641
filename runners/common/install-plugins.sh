#!/usr/bin/env bash
# Installs the docker CLI plugins dind-bench uses, buildx and compose v2, from the distribution's own
# packages, idempotently. Debian 13 ships them (docker-buildx, docker-compose), and so does Ubuntu's
# universe (docker-buildx, docker-compose-v2). Debian 12 (bookworm) has no buildx and only the retired
# Python compose 1.29, so there both come from Debian 13 "trixie": an apt source for trixie and an apt
# preference that lets ONLY these two packages come from it (every other trixie package gets priority -1,
# so bookworm stays bookworm). Both depend only on libc6 (>= 2.34), which bookworm has. Used by
# .ci/install.sh, runners/common/provision.sh and actions/setup. Run as root.
#
#   install-plugins.sh [buildx] [compose]        (default: both)
#
# A plugin that is already there system-wide (any package, e.g. Docker's docker-buildx-plugin, or a file in
# the CLI's system plugin folders) is kept. The docker CLI looks in the user's own folder
# (${DOCKER_CONFIG:-~/.docker}/cli-plugins) before the system's: a plugin there shadows the package. One that
# an earlier .ci/install.sh built from source (buildx by `go install`, compose v2.40.3) is moved aside to
# cli-plugins.replaced/ next to it; any other is left alone, with a warning.
# DIND_BENCH_DEBIAN_MIRROR: the Debian mirror of the trixie source (default: the host's own Debian mirror).
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "install-plugins: run as root" >&2; exit 1; }
command -v apt-get >/dev/null || { echo "install-plugins: no apt-get: install buildx and compose v2 some other way" >&2; exit 1; }
# shellcheck source=/dev/null
. /etc/os-release
export DEBIAN_FRONTEND=noninteractive

want=("$@")
[ "${#want[@]}" -gt 0 ] || want=(buildx compose)
for p in "${want[@]}"; do
  case "$p" in buildx | compose) ;; *) echo "install-plugins: unknown plugin $p (buildx, compose)" >&2; exit 2 ;; esac
done

# The docker CLI's system plugin folders, in its own search order.
system_dirs=(/usr/local/lib/docker/cli-plugins /usr/local/libexec/docker/cli-plugins /usr/lib/docker/cli-plugins
  /usr/libexec/docker/cli-plugins)
user_dir=${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins
system_plugin() { # plugin -> the first system-wide file of it, if any
  local d
  for d in "${system_dirs[@]}"; do
    if [ -x "$d/docker-$1" ]; then echo "$d/docker-$1"; return 0; fi
  done
  return 1
}

# trixie for bookworm: the source (packages index only, this architecture) and the preference.
trixie_source=/etc/apt/sources.list.d/dind-bench-trixie.sources
trixie_pin=/etc/apt/preferences.d/dind-bench-trixie
add_trixie() {
  local mirror=${DIND_BENCH_DEBIAN_MIRROR:-}
  if [ -z "$mirror" ]; then
    mirror="$(grep -hoE '^(URIs:[[:space:]]*|deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)[^[:space:]]+/debian/?([[:space:]]|$)' \
      /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null \
      | head -n1 | sed -E 's/^(URIs:|deb)[[:space:]]*(\[[^]]*\][[:space:]]+)?//; s/[[:space:]]+$//; s#/$##' || true)"
  fi
  [ -n "$mirror" ] || { echo "install-plugins: no Debian mirror in /etc/apt/sources.list*: set DIND_BENCH_DEBIAN_MIRROR" >&2; exit 1; }
  # bookworm's debian-archive-keyring carries trixie's keys since 2023.3+deb12u1.
  if [ ! -e /usr/share/keyrings/debian-archive-trixie-stable.gpg ]; then
    echo "install-plugins: debian-archive-keyring without trixie's keys: upgrading it"
    apt-get update -qq
    apt-get install -y -qq debian-archive-keyring >/dev/null
  fi
  cat >"$trixie_source" <<EOF
# Added by dind-bench (runners/common/install-plugins.sh): only docker-buildx and docker-compose come from
# here, see $trixie_pin.
Types: deb
URIs: $mirror
Suites: trixie
Components: main
Architectures: $(dpkg --print-architecture)
Languages: none
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  cat >"$trixie_pin" <<'EOF'
# Added by dind-bench (runners/common/install-plugins.sh): Debian 13 (trixie) is a source for the docker
# CLI plugins only; they depend on libc6 (>= 2.34) alone. Everything else stays with this host's release.
Package: *
Pin: release n=trixie
Pin-Priority: -1

Package: docker-buildx docker-compose
Pin: release n=trixie
Pin-Priority: 990
EOF
}

packages=()
for p in "${want[@]}"; do
  if found=$(system_plugin "$p"); then
    owner=$(dpkg-query -S "$found" 2>/dev/null | cut -d: -f1 || true)
    echo "install-plugins: docker $p: $found (${owner:-not from a package}) is there"
    continue
  fi
  case "$p" in
    buildx) packages+=(docker-buildx) ;;
    compose)
      # Ubuntu names compose v2 docker-compose-v2 (its docker-compose is v1); Debian 13 docker-compose.
      if [ "$ID" = ubuntu ]; then packages+=(docker-compose-v2); else packages+=(docker-compose); fi ;;
  esac
done

if [ "${#packages[@]}" -gt 0 ]; then
  if [ "$ID" = debian ] && [ "${VERSION_CODENAME:-}" = bookworm ]; then
    if [ ! -e "$trixie_source" ] || [ ! -e "$trixie_pin" ]; then add_trixie; fi
    # The packages come from trixie alone and need nothing new from bookworm: only trixie's index is read.
    apt-get update -qq -o Dir::Etc::SourceList="$trixie_source" -o Dir::Etc::SourceParts=/nonexistent \
      -o APT::Get::List-Cleanup=0
    from="Debian trixie, pinned"
  else
    if ! apt-cache show "${packages[@]}" >/dev/null 2>&1; then apt-get update -qq; fi
    from="$PRETTY_NAME"
  fi
  echo "install-plugins: ${packages[*]} ($from)"
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

# What `docker buildx` and `docker compose` run now: a plugin in the user's folder comes first.
for p in "${want[@]}"; do
  own="$user_dir/docker-$p"
  [ -e "$own" ] || continue
  version=$("$own" version 2>/dev/null | head -n1 | sed "s/[[:space:]]*$//" || true)
  case "$p:$version" in
    # `go install` leaves buildx without its version (v0.0.0+unknown); compose was built with its own.
    buildx:*" v0.0.0+unknown"* | compose:*" v2.40.3"*)
      mkdir -p "$user_dir.replaced"
      mv "$own" "$user_dir.replaced/"
      echo "install-plugins: moved $own ($version, built from source by an earlier .ci/install.sh) to $user_dir.replaced/:" \
        "it shadowed $(system_plugin "$p" || echo "the package")" ;;
    *)
      echo "install-plugins: warning: $own (${version:-no version}) comes before $(system_plugin "$p" || echo "the package")" \
        "for \`docker $p\`; remove it to use the package" >&2 ;;
  esac
done
