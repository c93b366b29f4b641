// The buildx that .ci/install.sh, the runners' provisioning and the setup action install is the
// distribution's package (Debian's docker-buildx: 0.13.1 from Debian 13, pinned, on Debian 12; see
// runners/common/install-plugins.sh). On the real engine, that plugin, used explicitly, reads the bake file
// into the same matrix and `docker buildx bake` builds every target that can be built offline (the Debian
// benchmark images and the DinD images of Debian's Engine lines) under a prefix of the test's own, so the
// images runs use are not touched. Where those images exist, BuildKit's cache answers their steps; one
// target is then built again with --no-cache, so a RUN step really runs through the packaged plugin.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { RECIPE_LABEL, bake, bakeTargets } from '../../src/images/build.js';
import { ENGINE_VERSIONS, OFFLINE_BASES } from '../../src/images/catalog.js';
import { imageLabels } from '../../src/images/describe.js';
import { matrixFromBakePrint } from '../../src/images/matrix.js';
import { engineOrSkip, ensureImages } from '../helpers/engine.js';
import { packagedOrSkip } from '../helpers/plugins.js';

test("the distribution's packaged buildx builds the image matrix with docker buildx bake", async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  const pkg = packagedOrSkip(t, 'buildx');
  if (!pkg) return;

  // A docker config whose only plugin is the package's: nothing in ~/.docker can stand in for it.
  const config = mkdtempSync(path.join(tmpdir(), 'dind-bench-packaged-buildx-'));
  mkdirSync(path.join(config, 'cli-plugins'));
  symlinkSync(pkg.file, path.join(config, 'cli-plugins', 'docker-buildx'));
  const previous = process.env.DOCKER_CONFIG;
  process.env.DOCKER_CONFIG = config;
  const prefix = `dind-bench-test-${process.pid}`;
  /** @type {string[]} */
  const built = [];
  try {
    const version = spawnSync('docker', ['buildx', 'version'], { encoding: 'utf8' });
    assert.equal(version.status, 0, version.stderr);
    // `github.com/docker/buildx 0.13.1+ds1 0.13.1+ds1-3` for the package 0.13.1+ds1-3 (Docker's own prints v0.x.y).
    const upstream = version.stdout.split(/\s+/)[1].replace(/^v/, '');
    assert.ok(
      pkg.version.replace(/^\d+:/, '').startsWith(upstream),
      `${version.stdout} is not ${pkg.package} ${pkg.version}`,
    );

    await ensureImages(outer, ENGINE_VERSIONS);
    const matrix = matrixFromBakePrint(JSON.parse(String(await bake(['--print', 'default', 'dind-official']))));
    assert.deepEqual([...matrix.distros].sort(), ['alpine', 'debian']);
    for (const engine of ENGINE_VERSIONS) assert.ok(matrix.engines.includes(engine), `${engine} in ${matrix.engines}`);
    assert.ok(matrix.images.includes('lifecycle') && matrix.images.includes('pgbench'), `${matrix.images}`);

    const targets = await bakeTargets({ distros: ['debian'], engines: ENGINE_VERSIONS, benchImages: matrix.images });
    assert.equal(targets.length, matrix.images.length + ENGINE_VERSIONS.length, targets.map((x) => x.target).join(' '));
    const vars = { IMAGE_PREFIX: prefix, ...OFFLINE_BASES };
    const ours = (/** @type {string} */ ref) => ref.replace(/^[^/]+\//, `${prefix}/`);
    built.push(...targets.map((x) => ours(x.ref)));
    const recipes = targets.flatMap((x) => ['--set', `${x.target}.labels.${RECIPE_LABEL}=${x.recipe}`]);
    await bake([...targets.map((x) => x.target), ...recipes, '--load', '--progress=plain'], vars);
    for (const target of targets) {
      const labels = await imageLabels(outer, ours(target.ref));
      assert.equal(labels?.[RECIPE_LABEL], target.recipe, `${ours(target.ref)}: ${JSON.stringify(labels)}`);
    }

    /** @type {string[]} */
    const lines = [];
    await bake(['lifecycle-debian', '--no-cache', '--load', '--progress=plain'], vars, (l) => lines.push(l));
    // The RUN step ran (`#N DONE`), not answered from the cache (`#N CACHED`; the FROM of a local base always is).
    // (a step of a named stage reads `[apt-lists 2/2] RUN`: the package lists each base fetches once)
    const step = lines.map((l) => l.match(/^(#\d+) \[(?:[\w-]+ )?\d+\/\d+\] RUN /)?.[1]).find(Boolean);
    assert.ok(step, lines.join('\n'));
    assert.ok(
      lines.some((l) => l.startsWith(`${step} DONE`)),
      lines.join('\n'),
    );
    assert.ok(!lines.includes(`${step} CACHED`), lines.join('\n'));
  } finally {
    if (previous === undefined) delete process.env.DOCKER_CONFIG;
    else process.env.DOCKER_CONFIG = previous;
    for (const ref of built)
      await outer
        .getImage(ref)
        .remove()
        .catch(() => {});
    rmSync(config, { recursive: true, force: true });
  }
});
