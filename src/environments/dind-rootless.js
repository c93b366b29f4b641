// `dind-rootless`: a rootless inner dockerd (Debian's dockerd-rootless.sh: rootlesskit, slirp4netns,
// uidmap) run by an unprivileged user inside the outer container. The outer container still needs the
// privileges of `dind` (it makes user namespaces and mounts); what changes is that the inner engine
// and its containers run as that user, with networking through slirp4netns in user space. On a cgroup
// v1 host the rootless engine has no cgroups (no memory stats, no resource limits): the engine says
// so in its `docker info` warnings, kept in the facts.
import { DindEnvironment } from './dind.js';
import { environment } from '../model/environments.js';

export class DindRootlessEnvironment extends DindEnvironment {
  static descriptor = environment('dind-rootless');
  /** A rootless dockerd reads registry CAs from $XDG_CONFIG_HOME/docker/certs.d of its user (HOME=/home/rootless). */
  certsDir = '/home/rootless/.config/docker/certs.d';
  variant = {
    // The entrypoint's run_rootless (images/dind/dind-entrypoint.sh) starts it as the user `rootless`.
    cmd: ['dockerd-rootless', '--host=unix:///var/run/rootless/docker.sock'],
    devices: ['/dev/net/tun'],
    socket: 'rootless/docker.sock',
    dataRoot: '/home/rootless/.local/share/docker',
  };
}
