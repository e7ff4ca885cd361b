// The service child of the crash, restart and log tests (see service-process.ts): the same
// startService the CLI uses, configured from the environment; prints one JSON line with its URL
// once it listens.
import { loadEnv } from '../../src/config/env.js';
import { startService } from '../../src/service.js';

const service = await startService({ env: loadEnv(), seedDemo: false });
process.stdout.write(`${JSON.stringify({ baseUrl: service.baseUrl })}\n`);
