#!/usr/bin/env node
// The `contactline` command. Registers tsx so the TypeScript sources run as they are, then
// hands over to src/cli/main.ts (resolved from this file, so any working directory works).
import { register } from 'tsx/esm/api';

register();

const { main } = await import(new URL('../src/cli/main.ts', import.meta.url).href);
const code = await main(process.argv);
process.exitCode = code;
// Safety net: once the command is done nothing should keep the process alive; if a
// library left a handle open, exit anyway (unref'd, so a clean exit is not delayed).
setTimeout(() => process.exit(code), 3000).unref();
