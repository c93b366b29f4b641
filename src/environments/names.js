// The environments by name, for the registry (./index.js), the run planner and the command line. Their
// names and properties are declared once, in their descriptors (../model/environments.js, which imports
// nothing, so `dind-bench --help` can list the names without loading the environments behind them:
// test/cli/start-up.test.js checks it).
export {
  DEFAULT_ENVIRONMENTS,
  ENVIRONMENT_NAMES,
  hasEngineLines,
  startsOwnEngine,
  comparedWithDocker,
  descriptorOf,
} from '../model/environments.js';
