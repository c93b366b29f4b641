// `dind-vfs`: DinD without a volume for the inner /var/lib/docker. The inner data-root then sits on the
// outer container's overlayfs, which overlay2 cannot use as its upper layer: Engine 20.10 silently falls
// back to vfs. A real-world trap worth measuring; the facts record what the inner daemon really chose.
import { DindEnvironment } from './dind.js';
import { environment } from '../model/environments.js';

export class DindVfsEnvironment extends DindEnvironment {
  static descriptor = environment('dind-vfs');
  volume = false;
}
