// What of the host's cgroups a DinD container gets. An inner daemon must create cgroups for its
// containers; it needs a cgroup tree it can write, not the host's. So:
//   - where the engine supports cgroup namespaces (API 1.41, Engine 20.10, on cgroup v1 and v2), the
//     container gets a PRIVATE cgroup namespace and no bind of the host's /sys/fs/cgroup: the tree it
//     sees, and may write, is its own cgroup (a delegated subtree of the outer engine's cgroup for
//     it). Privileged containers get it writable; with the capability set the engine mounts it
//     read-only, and the image's entrypoint remounts that view writable (images/dind/dind-entrypoint.sh),
//     which changes only the container's own mount, never the host's;
//   - an older engine gets the host's tree bound in writable, as before, and the results say so.
// The choice is recorded in each DinD environment's facts (`dind.cgroup`).

/**
 * @typedef {{ namespace: 'private' | 'host', reason: string }} CgroupChoice
 * @typedef {{ binds: string[], hostConfig: { CgroupnsMode?: 'private' }, record: CgroupChoice }} CgroupAccess
 */

/** The first Engine API with `CgroupnsMode` (Engine 20.10). */
export const CGROUPNS_API = '1.41';

/**
 * @param {string} a @param {string} b API versions such as "1.41" @returns {number} <0, 0, >0
 */
export function compareApi(a, b) {
  const [x, y] = [a, b].map((v) => String(v).split('.').map(Number));
  return x[0] - y[0] || (x[1] ?? 0) - (y[1] ?? 0);
}

/**
 * How a DinD container on `outer` gets its cgroups.
 * @param {import('dockerode')} outer @returns {Promise<CgroupAccess>}
 */
export async function cgroupAccess(outer) {
  const api = (await outer.version()).ApiVersion;
  if (api && compareApi(api, CGROUPNS_API) >= 0) {
    return {
      binds: [],
      hostConfig: { CgroupnsMode: 'private' },
      record: {
        namespace: 'private',
        reason: `own cgroup namespace (Engine API ${api}); the host's cgroup tree is not mounted`,
      },
    };
  }
  return {
    binds: ['/sys/fs/cgroup:/sys/fs/cgroup:rw'],
    hostConfig: {},
    record: {
      namespace: 'host',
      reason: `Engine API ${api} has no cgroup namespaces (needs ${CGROUPNS_API}): the host's cgroup tree is bound in writable`,
    },
  };
}
