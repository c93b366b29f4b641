#!/usr/bin/env bash
# ON A LONG-LIVED (lab) RUNNER, as root, before every job (ExecStartPre of dind-bench-runner.service):
# nothing one job started, built or left can meet the next.
#   - the engine: every container, volume, network, image and the build cache (the next job rebuilds
#     its images: slower, but no image a job built or tampered with is run by the next one);
#   - the runner user: its processes, crontab, home (recreated from /etc/skel) and its files in /tmp;
#   - the runner itself is unpacked fresh per job by ephemeral-runner.sh.
# A job can act as root through the docker group, so this resets what jobs ordinarily leave; it cannot
# undo a deliberate root-level compromise (see SECURITY.md: reinstall the machine if a job may have been
# hostile).
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "clean-engine.sh: run as root" >&2; exit 1; }
user=${RUNNER_USER:-runner}

mapfile -t containers < <(docker ps -aq)
if [ "${#containers[@]}" -gt 0 ]; then docker rm -f -v "${containers[@]}" >/dev/null; fi
docker system prune -af --volumes >/dev/null
docker builder prune -af >/dev/null 2>&1 || :

# Leftover processes of the runner user (a job's background process), then its state.
if id "$user" >/dev/null 2>&1; then
  pkill -KILL -u "$user" 2>/dev/null || :
  crontab -r -u "$user" 2>/dev/null || :
  home_dir=$(getent passwd "$user" | cut -d: -f6)
  if [ -n "$home_dir" ] && [ "$home_dir" != / ]; then
    rm -rf "$home_dir"
    install -d -o "$user" -g "$user" -m 0750 "$home_dir"
    cp -rT /etc/skel "$home_dir"
    chown -R "$user:$user" "$home_dir"
  fi
  find /tmp /var/tmp /dev/shm -xdev -user "$user" -delete 2>/dev/null || :
fi
echo "runner machine reset: ${#containers[@]} containers removed; images, volumes, networks, build cache and $user's home emptied"
