// `dind-fuse-overlayfs`: DinD without a volume for the inner /var/lib/docker, like `dind-vfs`, but with
// the fuse-overlayfs storage driver instead of the vfs fallback: overlay semantics in user space, on
// top of the outer container's own overlayfs (which kernel overlayfs cannot stack on). Needs /dev/fuse.
import { DindEnvironment } from './dind.js';
import { environment } from '../model/environments.js';

export class DindFuseOverlayfsEnvironment extends DindEnvironment {
  static descriptor = environment('dind-fuse-overlayfs');
  volume = false;
  variant = {
    cmd: ['dockerd', '--host=unix:///var/run/docker.sock', '--storage-driver=fuse-overlayfs'],
    devices: ['/dev/fuse'],
    // The image keeps fuse-overlayfs off PATH so that no other DinD picks it by itself (images/dind).
    env: ['PATH=/opt/fuse-overlayfs/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
  };
}
