// A team's registries as the job's inner engines must trust them: a CA certificate of the registry's own
// (a file of the workload's, or a variable holding the PEM) or plain HTTP (`insecure: true`). Checked when
// the workload is loaded (the file inside the root, the variable set, each a real X.509 certificate), so a
// wrong one is refused before anything runs; at the run a folder of certificates in the layout every engine
// reads (HOST[:PORT]/ca.crt: dockerd's /etc/docker/certs.d, a rootless dockerd's ~/.config/docker/certs.d,
// Podman's /etc/containers/certs.d) is made for the fresh inner engines to see read-only, and the plain-HTTP
// ones join the run's own insecure registries. The runner's engine (docker, dood) is the runner's: it
// trusts what its owner set up, and the run does not change it.
import { howToPass } from './credentials.js';
import { engineVisibleTmp } from '../environments/engine-visible.js';
import { X509Certificate } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { logText } from '../text/escape.js';

/** A CA bundle is a few certificates: larger is no CA file. */
const MAX_CA_BYTES = 64 * 1024;

/**
 * @typedef {import('./credentials.js').WorkloadRegistry} WorkloadRegistry
 * @typedef {{ address: string, pem: string }} RegistryCa
 */

/**
 * Every registry's CA is there, inside the root, and a certificate; throws through `fail` naming the field.
 * @param {{ registries?: WorkloadRegistry[] }} w @param {string} dir the workload file's folder
 * @param {string} root the workload's root, real path @param {string} where
 * @param {(message: string) => Error} fail @param {NodeJS.ProcessEnv} [env]
 */
export async function checkTrust(w, dir, root, where, fail, env = process.env) {
  for (const [i, r] of (w.registries ?? []).entries()) {
    if (!r.ca) continue;
    const field = `${where}: field /registries/${i}/ca`;
    if (r.insecure)
      throw fail(
        `${field}: a registry on plain HTTP (insecure: true) has no certificate to trust; give one or the other`,
      );
    const pem = await readCa(r, dir, root, field, fail, env);
    if (PRIVATE_KEY.test(pem)) {
      const ca = /** @type {{ file?: string, env?: string }} */ (r.ca);
      const what = ca.env ? `/env: the variable ${logText(ca.env)}` : `/file: ${logText(String(ca.file))}`;
      throw fail(
        `${field}${what} holds a private key (-----BEGIN … PRIVATE KEY-----): a CA bundle is the registry's CA certificates only, ` +
          'and the run writes nothing else for the inner engines. Take the key out (keep only the -----BEGIN CERTIFICATE----- blocks) ' +
          'and replace the key: it was shared with whoever reads the ' +
          (ca.env ? 'secret' : 'repository'),
      );
    }
    try {
      for (const cert of splitPem(pem)) new X509Certificate(cert);
      if (!splitPem(pem).length) throw new Error('no PEM certificate in it');
    } catch (e) {
      throw fail(
        `${field}: not a PEM certificate (${logText(/** @type {Error} */ (e).message.slice(0, 120))}); give the registry's CA certificate, -----BEGIN CERTIFICATE----- …`,
      );
    }
  }
}

/**
 * The PEM text of a registry's CA. @param {WorkloadRegistry} r @param {string} dir @param {string} root
 * @param {string} field @param {(message: string) => Error} fail @param {NodeJS.ProcessEnv} env
 */
async function readCa(r, dir, root, field, fail, env) {
  const ca = /** @type {{ file?: string, env?: string }} */ (r.ca);
  if (ca.env) {
    const value = env[ca.env];
    if (!value)
      throw fail(
        `${field}/env: the environment variable ${ca.env} is not set (or empty); set it to the CA certificate (PEM) of ${r.address}: ${howToPass(ca.env)}`,
      );
    if (value.length > MAX_CA_BYTES)
      throw fail(`${field}/env: ${ca.env} holds more than ${MAX_CA_BYTES} bytes; a CA is a few`);
    return value;
  }
  const rel = /** @type {string} */ (ca.file);
  const real = path.isAbsolute(rel) ? null : await realpath(path.resolve(dir, rel)).catch(() => null);
  if (real === null || (real !== root && !real.startsWith(root + path.sep)))
    throw fail(
      `${field}/file: ${logText(rel)} is not a file inside the workload's root (relative to the workload file's folder, present, no link leading out)`,
    );
  const text = await readFile(real, 'utf8').catch(() => null);
  if (text === null) throw fail(`${field}/file: ${logText(rel)} cannot be read as a file`);
  if (text.length > MAX_CA_BYTES)
    throw fail(`${field}/file: ${logText(rel)} is more than ${MAX_CA_BYTES} bytes; a CA is a few`);
  return text;
}

/** A private key's PEM block, of any kind (PKCS#8, RSA, EC, OpenSSH, encrypted). */
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/** The certificates of a PEM bundle, each whole. @param {string} pem */
const splitPem = (pem) => pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];

/**
 * The registries to trust over plain HTTP, and the CAs to trust, of a loaded workload (values read now).
 * @param {{ registries?: WorkloadRegistry[], dir: string }} w @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<{ insecure: string[], cas: RegistryCa[] }>}
 */
export async function trustOf(w, env = process.env) {
  const insecure = (w.registries ?? []).filter((r) => r.insecure).map((r) => r.address);
  /** @type {RegistryCa[]} */
  const cas = [];
  for (const r of w.registries ?? []) {
    if (!r.ca) continue;
    const pem = r.ca.env ? String(env[r.ca.env] ?? '') : await readFile(path.resolve(w.dir, String(r.ca.file)), 'utf8');
    cas.push({ address: r.address, pem });
  }
  return { insecure, cas };
}

/**
 * A folder of `cas` in the certs.d layout (ADDRESS/ca.crt), readable by an inner engine's own user (a
 * rootless dockerd's, Podman's): public certificates only. Removed by the returned `remove()`.
 * @param {RegistryCa[]} cas @returns {Promise<{ dir: string, remove: () => Promise<void> }>}
 */
export async function certsFolder(cas) {
  const dir = await mkdtemp(path.join(await engineVisibleTmp(), 'dind-bench-certs-'));
  await chmod(dir, 0o755);
  for (const { address, pem } of cas) {
    // An address is host[:port] by the schema: no "/" or "..", one folder each.
    const folder = path.join(dir, address);
    await mkdir(folder, { mode: 0o755 });
    // The certificates only, whatever else the file holds by the time the run reads it (it was checked at
    // load: no private key). Readable by all: a rootless inner engine runs as a user of its own and must
    // read it, and a certificate is public; the folder is the run's own, removed after the job.
    await writeFile(path.join(folder, 'ca.crt'), `${splitPem(pem).join('\n')}\n`, { mode: 0o644 });
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
