# shellcheck shell=sh
# The isolation probe: what a process here can see and reach, printed as evidence lines
# "KEY<TAB>VALUE". It only reads: files are tested with access(2) (`test -w`), never written; the one
# action is a read-only mount of a host block device that is already mounted on the host (so its
# filesystem is live and a read-only mount cannot replay a journal), inside a private mount namespace
# that ends with this script, unmounted at once. No network. POSIX sh and util-linux, as in every
# Debian image. The facts are decided from these lines by src/parsers/isolation.js.
say() { printf '%s\t%s\n' "$1" "$2"; }
one() { tr '\n' ';' | sed 's/;$//'; }

say status.CapEff "$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)"
say status.CapBnd "$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)"
say status.Seccomp "$(sed -n 's/^Seccomp:[[:space:]]*//p' /proc/self/status)"
say status.NoNewPrivs "$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' /proc/self/status)"
if [ -d /sys/module/apparmor ]; then
  say apparmor.enabled "$(one </sys/module/apparmor/parameters/enabled 2>&1)"
  say apparmor.current "$(cat /proc/self/attr/apparmor/current 2>/dev/null || one </proc/self/attr/current 2>&1)"
else
  say apparmor.enabled absent
fi
say uid_map "$(sed 's/  */ /g; s/^ //' /proc/self/uid_map | one)"
for ns in user pid mnt cgroup; do say "ns.$ns" "$(readlink /proc/self/ns/$ns 2>&1)"; done
say pid1 "$(tr '\0\n\t' '   ' </proc/1/cmdline 2>/dev/null | cut -c1-60)"
# Mounts that decide /dev, /proc/sys and the cgroup files: "mount point | root | fstype | options".
awk '{ for (i = 7; $i != "-"; i++); if ($5 == "/dev" || $5 == "/proc/sys" || $5 == "/proc" || $5 ~ "^/sys/fs/cgroup") print "mount\t" $5 " | " $4 " | " $(i+1) " | " $6 }' /proc/self/mountinfo
# Devices (major:minor) of every mount here: a host disk in use on the host shows up as one of them.
say mounted.devs "$(awk '{print $3}' /proc/self/mountinfo | sort -u | one)"
# Host block devices: /proc/partitions is the kernel's list, whatever the namespaces.
awk 'NR > 2 && $4 !~ /^(loop|ram|zram|sr|nbd)/ {print "partition\t" $4 " " $1 ":" $2}' /proc/partitions
awk 'NR > 2 && $4 !~ /^(loop|ram|zram|sr|nbd)/ {print $4}' /proc/partitions | while read -r d; do
  if [ -b "/dev/$d" ]; then say blockdev "$d present"; else say blockdev "$d absent"; fi
done
if [ -r /sys/fs/cgroup/devices/devices.list ]; then
  say devices.list "$(head -n 20 /sys/fs/cgroup/devices/devices.list | one)"
else
  say devices.list "unreadable"
fi
# Writable? access(W_OK) only: kernel.panic is one of the many sysctls no namespace keeps apart.
if test -w /proc/sys/kernel/panic; then say procsys.writable yes; else say procsys.writable no; fi
# Whether a cgroup directory is its hierarchy's real root, whatever the cgroup namespace shows: only the
# root has release_agent (v1), and only a non-root cgroup has cgroup.type (v2).
for f in /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/*/cgroup.procs; do
  [ -e "$f" ] || continue
  d=${f%/cgroup.procs}
  root=unknown
  if [ -e "$d/release_agent" ]; then root=root; elif [ -e "$d/cgroup.type" ]; then root=subtree;
  elif [ -e "$d/tasks" ]; then root=subtree; elif [ -e "$d/cgroup.controllers" ]; then root=root; fi
  if test -w "$f"; then say cgroup.writable "$f yes $root"; else say cgroup.writable "$f no $root"; fi
done
# Engine sockets this process can see (device and inode: a bind mount keeps the host file's).
for s in /var/run/docker.sock /run/docker.sock /var/run/rootless/docker.sock /run/podman/podman.sock \
  /var/run/docker/containerd/containerd.sock /run/containerd/containerd.sock; do
  [ -S "$s" ] && say socket "$s $(stat -L -c '%d %i' "$s")"
done
say env.DOCKER_HOST "${DOCKER_HOST:-}"
# The mount attempt: the first host disk whose node is here and whose filesystem is live (in use), with
# that filesystem's type as the mounts here name it (no probing of the device's content).
awk 'NR > 2 && $4 !~ /^(loop|ram|zram|sr|nbd)/ {print $4, $1 ":" $2}' /proc/partitions | while read -r name dev; do
  [ -b "/dev/$name" ] || continue
  fstype=$(awk -v dev="$dev" '{ for (i = 7; $i != "-"; i++); if ($3 == dev) { print $(i+1); exit } }' /proc/self/mountinfo)
  [ -n "$fstype" ] || continue
  # shellcheck disable=SC2016 # $1 and $2 are the inner shell's arguments
  out=$(unshare --mount --propagation private sh -c 'mount -t "$2" -o ro "$1" /mnt && umount /mnt && echo mounted' _ "/dev/$name" "$fstype" 2>&1 | one)
  say mount.try "/dev/$name $out"
  break
done
say end yes
