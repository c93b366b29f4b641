// What a reading says of a run pooled from sample shards (`dind-bench merge` of a workload split over shard
// jobs, src/results/pool-cells.js): its samples came from several runners, each interleaving every
// environment, and every interval is read from all of them.

/**
 * @param {import('#model/results.js').Results} results @returns {string[]} the caveat, or none
 */
export function pooledNote(results) {
  const shards = results.run.shards ?? [];
  if (!results.run.pooled || shards.length < 2) return [];
  return [
    `Samples came from ${shards.length} runners (shard jobs of ${shards.map((s) => s.cells).join(' + ')} cells): ` +
      'each ran every environment of this run, interleaved, with a share of the samples, and every interval ' +
      'pools them all.',
  ];
}
