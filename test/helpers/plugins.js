// The docker CLI plugins as installed from the distribution's packages (runners/common/install-plugins.sh):
// which file and which package version each is, so the tests on the real engine can use the package
// explicitly and check that what a run used was the package. In CI (CI=true) a missing package fails the
// test: .ci/install.sh installs both. Elsewhere the test is skipped with the fix.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The docker CLI's system plugin folders, in its search order (the packages install into one of them). */
const SYSTEM_DIRS = [
  '/usr/local/lib/docker/cli-plugins',
  '/usr/local/libexec/docker/cli-plugins',
  '/usr/lib/docker/cli-plugins',
  '/usr/libexec/docker/cli-plugins',
];

/**
 * The packaged plugin `docker-<name>`, or null when no package installed one.
 * @param {'buildx' | 'compose'} name
 * @returns {{ file: string, package: string, version: string } | null}
 */
export function packagedPlugin(name) {
  for (const dir of SYSTEM_DIRS) {
    const file = path.join(dir, `docker-${name}`);
    if (!existsSync(file)) continue;
    const owner = spawnSync('dpkg-query', ['-S', file], { encoding: 'utf8' });
    if (owner.status !== 0) continue;
    const pkg = owner.stdout.split(':')[0].trim();
    const version = spawnSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' }).stdout.trim();
    return { file, package: pkg, version };
  }
  return null;
}

/**
 * @param {import('node:test').TestContext} t @param {'buildx' | 'compose'} name
 * @returns {{ file: string, package: string, version: string } | null}
 */
export function packagedOrSkip(t, name) {
  const found = packagedPlugin(name);
  if (found) return found;
  const fix = `as root \`bash runners/common/install-plugins.sh ${name}\` (or .ci/install.sh)`;
  if (process.env.CI) throw new Error(`CI=true but no package installed docker ${name}: ${fix}`);
  t.skip(`docker ${name} is not installed from a package: ${fix}`);
  return null;
}
