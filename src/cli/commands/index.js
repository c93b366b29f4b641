// Every subcommand, one module each; a new command = a module with `register(cli)` and a line here.
import { register as comment } from './comment.js';
import { register as compare } from './compare.js';
import { register as doctor } from './doctor.js';
import { register as history } from './history.js';
import { register as images } from './images.js';
import { register as merge } from './merge.js';
import { register as plan } from './plan.js';
import { register as publish } from './publish.js';
import { register as redact } from './redact.js';
import { register as run } from './run.js';
import { register as site } from './site.js';
import { register as workflow } from './workflow.js';
import { register as workload } from './workload.js';

export const COMMANDS = [
  doctor,
  images,
  run,
  plan,
  publish,
  redact,
  compare,
  comment,
  merge,
  site,
  history,
  workflow,
  workload,
];
