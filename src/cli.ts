#!/usr/bin/env node
// The `baton` command. Before anything else loads: V8's young generation does not grow while the process starts
// (young-generation.ts), and Node reads, strips and compiles every statically imported module before running
// any of them, so the command itself (cli/main.ts) is loaded only once the hold is set.
import { holdYoungGeneration } from './roles/young-generation.ts';

holdYoungGeneration(process.env);
await import('./cli/main.ts');
