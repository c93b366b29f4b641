// `dind-bench images build`: the image matrix through docker buildx bake.
import { ENGINE_VERSIONS, PODMAN_VERSIONS } from '../../images/catalog.js';
import { log } from '../log.js';
import { benchOption, distroOption, engineOption } from '../options.js';

/** @param {import('commander').Command} cli */
export function register(cli) {
  const images = cli
    .command('images')
    .description('the image matrix: benchmark images per distribution, DinD images per Engine version');
  images
    .command('build')
    .description(
      'build the matrix with docker buildx bake (offline: Debian via debootstrap, Alpine reported unavailable)',
    )
    .addOption(distroOption('distributions'))
    .addOption(engineOption('inner Engine versions for DinD images', ENGINE_VERSIONS, ENGINE_VERSIONS))
    .addOption(benchOption('images of these benchmarks'))
    .option('--no-podman', "leave out the podman environment's image (./quickstart does unless --env names podman)")
    .option('--pull', 'let bake pull the pinned base images from a registry', false)
    .option('--json', 'print what was built and what is unavailable as JSON')
    .action(async (opts) => {
      const [{ BENCHMARKS }, { outerEngine, requireEngine }, { buildImages }] = await Promise.all([
        import('../../benchmarks/index.js'),
        import('../../engine/client.js'),
        import('../../images/build.js'),
      ]);
      const outer = outerEngine();
      await requireEngine(outer);
      // Benchmarks may share an image (build, memory and image-load use `lifecycle`): build each once.
      const benchImages = [...new Set(/** @type {string[]} */ (opts.bench).map((b) => BENCHMARKS[b].image))];
      const result = await buildImages({
        outer,
        distros: opts.distro,
        engines: opts.engine,
        benchImages,
        // The podman environment's image, with the rest of the matrix (images/podman).
        podman: opts.podman ? Object.keys(PODMAN_VERSIONS) : [],
        pull: opts.pull,
        log,
        verbose: true,
      });
      if (opts.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
      else {
        for (const ref of result.built) process.stdout.write(`built        ${ref}\n`);
        for (const [ref, why] of Object.entries(result.unavailable))
          process.stdout.write(`unavailable  ${ref}: ${why}\n`);
      }
    });
  images
    .command('matrix')
    .description(
      'print the image matrix of images/docker-bake.hcl as JSON: distributions, DinD Engine versions, benchmark images, targets',
    )
    .action(async () => {
      const { bakeMatrix } = await import('../../images/matrix.js');
      process.stdout.write(JSON.stringify(await bakeMatrix()) + '\n');
    });
}
