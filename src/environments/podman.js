// `podman`: the daemonless alternative to DinD. Debian's Podman (and Buildah) in a container on the
// runner's engine, run rootless inside it by the user `podman` (images/podman). Podman serves its
// Docker-compatible API on a unix socket in the folder shared with the host, so the same client times the
// same calls here as on every Docker engine (commands, services, the lifecycle probe, image loads); a
// build on it is Buildah's (Podman's /build is Buildah). Everything else is DinD's: a fresh container
// per job with its image store on a volume (native overlayfs in the user namespace), removed after.
//
// What the outer container gets is not DinD's: no added capability and no device but /dev/net/tun.
// Rootless podman makes its own user namespace, and on this kind of host that takes three things the
// engine's defaults refuse: seccomp unconfined (the default profile refuses clone(CLONE_NEWUSER) without
// CAP_SYS_ADMIN), /proc unmasked (the kernel refuses a new proc mount over a /proc with masked paths),
// and /dev/net/tun (slirp4netns, its user-space network). Each was the error of the attempt without it:
// docs/environments.md.
import { PODMAN_TIMELINE } from '../engine/startup.js';
import { podmanImage } from '../images/catalog.js';
import { DindEnvironment } from './dind.js';
import { environment } from '../model/environments.js';

/** The outer container's security set (mode `userns` of ./dind-daemon.js). */
export const PODMAN_SECURITY = {
  SecurityOpt: ['seccomp=unconfined'],
  // The API form of `--security-opt systempaths=unconfined`: nothing masked, nothing read-only in /proc.
  MaskedPaths: [],
  ReadonlyPaths: [],
};

/** A registry address the entrypoint writes into registries.conf: host[:port], nothing else. */
const REGISTRY_ADDRESS = /^[A-Za-z0-9][A-Za-z0-9.-]{0,252}(:\d{1,5})?$/;

/** What a job in this environment can reach, stated beside its figures in the reports. */
export const ISOLATION =
  'rootless Podman in a container without added capabilities: uid 0 in its containers is an unprivileged ' +
  'uid outside; the container runs with seccomp unconfined and /proc unmasked, which a rootless user namespace needs';

export class PodmanEnvironment extends DindEnvironment {
  static descriptor = environment('podman');
  timeline = PODMAN_TIMELINE;
  /** Podman and Buildah (containers/image) read registry CAs from certs.d, rootless too. */
  certsDir = '/etc/containers/certs.d';
  /** Podman's API is a unix socket only: there is no start with TLS material to measure. */
  tls = /** @type {const} */ (false);
  /** @type {import('./dind-daemon.js').DaemonVariant} */
  variant = {
    devices: ['/dev/net/tun'],
    socket: 'podman/podman.sock',
    dataRoot: '/home/podman/.local/share/containers',
    userns: PODMAN_SECURITY,
  };

  /** @param {import('dockerode')} outer @param {string | null} [_engine] podman has no Docker Engine line */
  constructor(outer, _engine = null) {
    super(outer, '');
    this.engine = null;
    this.outerImage = podmanImage();
  }

  /** @param {import('./environment.js').SetupContext} ctx */
  async setup(ctx) {
    const facts = await super.setup(ctx);
    return { ...facts, isolation: ISOLATION };
  }

  /**
   * The run's registries, trusted over plain HTTP through registries.conf (the entrypoint writes it from
   * this variable, host[:port] names only). Podman has no registry mirror setting of dockerd's kind.
   * @param {{insecureRegistries: string[], registryMirrors: string[]}} registries
   */
  jobDaemon({ insecureRegistries, registryMirrors }) {
    if (registryMirrors.length)
      throw new Error('podman: registry mirrors are not supported here (dockerd --registry-mirror has no podman flag)');
    // Checked here, before anything starts, as the entrypoint checks again: a name goes into a TOML file.
    const bad = insecureRegistries.find((r) => !REGISTRY_ADDRESS.test(r));
    if (bad !== undefined)
      throw new Error(
        `podman: registry address ${JSON.stringify(bad.slice(0, 100))} is not host[:port] (letters, digits, '.', '-', and a port)`,
      );
    return insecureRegistries.length ? { env: [`PODMAN_INSECURE_REGISTRIES=${insecureRegistries.join(',')}`] } : {};
  }
}
