// The results document, by name. Its shape is schema/results.v1.schema.json; results.v1.d.ts is generated
// from it (`npm run types:schema`), and these aliases name the parts every reader takes, so a reader says
// `@param {Results} results` instead of `any`. Types only: nothing here runs.

/**
 * A schema-valid results document (what `validateResults` returns).
 * @typedef {import('./results.v1.js').DindBenchResultsOneRun} Results
 * @typedef {Results['run']} Run
 * @typedef {Results['host']} Host
 * @typedef {Results['environments'][number]} EnvironmentEntry
 * @typedef {Results['images'][number]} ImageEntry
 * @typedef {Results['cells'][number]} Cell
 * @typedef {Cell['metrics'][number]} Metric
 * @typedef {NonNullable<Cell['timeseries']>[number]} Timeseries
 * @typedef {import('./results.v1.js').Person} Person
 */

export {};
