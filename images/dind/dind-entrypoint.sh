#!/bin/sh
# Starts the inner Docker daemon as PID 1 (exec), so `docker stop` on the outer container reaches
# dockerd directly and its stop time is the daemon's own.
set -e

# Start-up marks: "name epoch-nanoseconds" lines in /var/run (the folder dind-bench shares with the
# host), so the host can place the entrypoint's own work on the start-up timeline. Best effort: a
# read-only or missing /var/run never stops the daemon from starting.
MARKS=/var/run/dind-bench-marks
mark() {
  echo "$1 $(date +%s%N)" >> "$MARKS" 2>/dev/null || :
}

# TLS material made at start, the way the official docker:dind image does by default
# (DOCKER_TLS_CERTDIR set): a CA, a server and a client key pair, 4096-bit RSA, generated anew by
# every fresh container. Written here from the openssl manual, not taken from that image.
# $1: the certificate folder; ca/, server/ and client/ are made under it.
make_key_pair() { # $1 folder, $2 subject CN, $3 extensions file
  openssl genrsa -out "$1/key.pem" 4096 2>/dev/null
  openssl req -new -key "$1/key.pem" -subj "/CN=$2" -out "$1/csr.pem"
  openssl x509 -req -in "$1/csr.pem" -CA "$CERTDIR/ca/cert.pem" -CAkey "$CERTDIR/ca/key.pem" \
    -CAcreateserial \
    -days 825 -sha256 -extfile "$3" -out "$1/cert.pem" 2>/dev/null
  cp "$CERTDIR/ca/cert.pem" "$1/ca.pem"
  rm -f "$1/csr.pem"
}
make_tls() {
  CERTDIR=$1
  mkdir -p "$CERTDIR/ca" "$CERTDIR/server" "$CERTDIR/client"
  openssl genrsa -out "$CERTDIR/ca/key.pem" 4096 2>/dev/null
  openssl req -new -x509 -days 825 -sha256 -key "$CERTDIR/ca/key.pem" \
    -subj "/CN=dind-bench inner engine CA" -out "$CERTDIR/ca/cert.pem"
  printf 'subjectAltName = DNS:localhost, DNS:%s, IP:127.0.0.1\nextendedKeyUsage = serverAuth\n' "$(hostname)" \
    > "$CERTDIR/server/ext.cnf"
  make_key_pair "$CERTDIR/server" "$(hostname)" "$CERTDIR/server/ext.cnf"
  printf 'extendedKeyUsage = clientAuth\n' > "$CERTDIR/client/ext.cnf"
  make_key_pair "$CERTDIR/client" client "$CERTDIR/client/ext.cnf"
  chmod 0600 "$CERTDIR"/*/key.pem
}

# A rootless inner daemon (command `dockerd-rootless ARGS...`): dockerd-rootless.sh from Debian's
# docker.io runs dockerd as the user `rootless` in a user namespace made by rootlesskit, networking
# through slirp4netns. The user must reach its runtime folder in the shared /var/run (rootlesskit
# copies /run up, so it must read it), and /dev/net/tun for slirp4netns' tap device (the node the
# engine made from the host's is root's alone).
run_rootless() {
  chmod 0666 /dev/net/tun 2>/dev/null || :
  chmod 0755 /var/run
  mkdir -p /var/run/rootless /home/rootless/.local/share/docker
  chown rootless /var/run/rootless /home/rootless/.local/share/docker
  chmod 0700 /var/run/rootless
  mark exec_daemon
  exec setpriv --reuid=rootless --regid=rootless --init-groups \
    env XDG_RUNTIME_DIR=/var/run/rootless HOME=/home/rootless PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    /usr/share/docker.io/contrib/dockerd-rootless.sh "$@"
}

mark entrypoint_begin

# cgroups: this container's own tree, never the host's. With its own cgroup namespace (dind-bench asks
# for one where the engine has them, src/environments/dind-cgroup.js) every line of /proc/self/cgroup
# ends in ":/", and /sys/fs/cgroup shows only this container's cgroup: made writable here when the engine
# mounted it read-only (the capability set; privileged containers get it writable). The remount is of
# this container's mounts only. In the host's namespace (an engine without cgroup namespaces) this
# script changes nothing in the cgroup tree.
if ! grep -qv ':/$' /proc/self/cgroup; then
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    [ -w /sys/fs/cgroup ] || mount -o remount,bind,rw /sys/fs/cgroup 2>/dev/null || :
    # cgroup v2: move this process out of the namespace's root so the inner daemon can enable
    # controllers for its own children (otherwise "cannot enter cgroupv2 ... with domain controllers").
    if [ -w /sys/fs/cgroup/cgroup.subtree_control ]; then
      mkdir -p /sys/fs/cgroup/init
      xargs -rn1 < /sys/fs/cgroup/cgroup.procs > /sys/fs/cgroup/init/cgroup.procs 2>/dev/null || :
      sed -e 's/ / +/g' -e 's/^/+/' < /sys/fs/cgroup/cgroup.controllers > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || :
    fi
  else
    # cgroup v1: one mount per hierarchy (cpu and cpuacct may be links to a joint one).
    for d in /sys/fs/cgroup/*; do
      if [ -d "$d" ] && [ ! -L "$d" ] && [ ! -w "$d" ]; then mount -o remount,bind,rw "$d" 2>/dev/null || :; fi
    done
  fi
fi

rootless=
if [ "$1" = dockerd-rootless ]; then
  shift
  rootless=1
fi
if [ -n "${DOCKER_TLS_CERTDIR:-}" ]; then
  mark tls_begin
  make_tls "$DOCKER_TLS_CERTDIR"
  mark tls_done
  # TLS-verified TCP on the container's own loopback only: reachable from inside it, never from the
  # host's networks. dind-bench itself keeps talking to the unix socket.
  set -- "$@" --host=tcp://127.0.0.1:2376 --tlsverify \
    --tlscacert="$DOCKER_TLS_CERTDIR/server/ca.pem" --tlscert="$DOCKER_TLS_CERTDIR/server/cert.pem" \
    --tlskey="$DOCKER_TLS_CERTDIR/server/key.pem"
  # A rootless daemon reads its own key.
  if [ -n "$rootless" ]; then chown -R rootless "$DOCKER_TLS_CERTDIR/server"; fi
fi
if [ -n "$rootless" ]; then
  run_rootless "$@"
fi
mark exec_daemon
exec "$@"
