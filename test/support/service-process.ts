// Runs the service in a child process (for crash tests): the same startService the CLI
// uses, configured from the environment; prints one JSON line with its URL when listening.
import { loadEnv } from '../../src/config/env.js';
import { startService } from '../../src/service.js';

const env = loadEnv();
const service = await startService({ env, seedDemo: false });
process.stdout.write(`${JSON.stringify({ baseUrl: service.baseUrl })}\n`);
