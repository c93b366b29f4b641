// The pricing of a run and its workload's job costs are the reading's (../reading/pricing.js); re-exported
// here for this layer's readers.
export { DEFAULT_PRICE_PER_MINUTE, PRICE_SOURCE, costTable, jobSentence } from '../model/job-cost.js';
export { priceOf, pricingOf, workloadCosts } from '../reading/pricing.js';
