#!/usr/bin/env node
// The `contactline` command: runs src/cli/main.ts (resolved from this file, so any working
// directory works), compiled by load-sources.js and reused until a source changes.
import { loadSources } from './load-sources.js';

const { main } = await loadSources('src/cli/main.ts');
const code = await main(process.argv);
process.exitCode = code;
// Safety net: once the command is done nothing should keep the process alive; if a
// library left a handle open, exit anyway (unref'd, so a clean exit is not delayed).
setTimeout(() => process.exit(code), 3000).unref();
