#!/usr/bin/env node
import { main } from '../src/cli/main.js';

await main(process.argv);
