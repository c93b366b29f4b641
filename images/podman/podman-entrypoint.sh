#!/bin/sh
# Starts Podman's API service as the unprivileged user `podman`, as PID 1 (exec), so `docker stop` on
# the outer container reaches it directly. Its socket is in /var/run/podman, the folder dind-bench shares
# with the host.
set -e

# Start-up marks, as images/dind/dind-entrypoint.sh writes them (src/engine/startup.js reads them).
MARKS=/var/run/dind-bench-marks
mark() {
  echo "$1 $(date +%s%N)" >> "$MARKS" 2>/dev/null || :
}
mark entrypoint_begin

# slirp4netns opens /dev/net/tun as the user; the node the engine made from the host's is root's alone.
chmod 0666 /dev/net/tun 2>/dev/null || :
# The image store: a volume of the outer engine, made for root.
STORE=/home/podman/.local/share/containers
mkdir -p "$STORE"
chown podman:podman "$STORE" /home/podman/.local /home/podman/.local/share
# The user's runtime folder, in the shared /var/run (the host connects to the socket there).
chmod 0755 /var/run
mkdir -p /var/run/podman
chown podman:podman /var/run/podman
chmod 0700 /var/run/podman

# Registries a run starts itself, reached over plain HTTP on its own bridge: host[:port] names only,
# comma-separated (anything else is refused, so nothing but a name reaches the configuration file).
if [ -n "${PODMAN_INSECURE_REGISTRIES:-}" ]; then
  mkdir -p /etc/containers/registries.conf.d
  conf=/etc/containers/registries.conf.d/50-dind-bench.conf
  : > "$conf"
  for r in $(echo "$PODMAN_INSECURE_REGISTRIES" | tr ',' ' '); do
    case "$r" in
      *[!A-Za-z0-9.:-]* | '') echo "podman-entrypoint: refusing registry name '$r' (host[:port] only)" >&2; exit 2 ;;
    esac
    printf '[[registry]]\nlocation = "%s"\ninsecure = true\n' "$r" >> "$conf"
  done
fi

mark exec_daemon
exec setpriv --reuid=podman --regid=podman --init-groups \
  env XDG_RUNTIME_DIR=/var/run/podman HOME=/home/podman USER=podman PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
