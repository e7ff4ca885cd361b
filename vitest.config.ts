import { createRequire } from 'node:module';
import { configDefaults, defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// `npm run test:quick` (TEST_QUICK=1, embedded database only): the unit, API, edge and tool server
// suites for the edit loop, without the ones that spend minutes on one subject: the browser, the
// CLI and the integrations (child processes and emulators), kill -9 and restart, the input
// fuzzers, and the 30,000-contact bulk-update. `npm test` runs everything.
const SLOW_FILES = [
  'test/browser/**',
  'test/cli/**',
  'test/integration/**',
  'test/api/crash-recovery.test.ts',
  'test/api/webhooks-restart.test.ts',
  'test/api/log-safety.test.ts',
  'test/api/bulk-update-chunks.test.ts',
  'test/api/fuzz-graphql.test.ts',
  'test/api/fuzz-rest.test.ts',
  'test/api/fuzz-telephony.test.ts',
  'test/mcp/fuzz-tools.test.ts',
  'test/mcp/inspector-cli.test.ts',
];

export default defineConfig({
  // Pothos loads graphql through require() (CommonJS); vite would otherwise load the ESM
  // build for our own imports, and graphql refuses schemas from "another realm".
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: process.env.TEST_QUICK ? [...configDefaults.exclude, ...SLOW_FILES] : configDefaults.exclude,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time: the suites spend much of their time waiting on servers, child
    // processes and the database, so two workers keep a 2-core machine busy (vitest's default
    // is one fewer worker than cores: one, here).
    maxWorkers: 2,
    minWorkers: 1,
    // Files share their worker's loaded modules (the service, Prisma, the GraphQL schema) instead
    // of loading them again per file, which cost seconds a file. Suites keep no module-level
    // state of their own: each starts its own server, database and clock.
    isolate: false,
    // The in-process servers of the tests would write an access line per request to the test
    // log; warnings and errors still show. Tests that read the log run a service process with
    // LOG_LEVEL=info of their own (test/api/log-safety.test.ts).
    env: { LOG_LEVEL: 'warn' },
  },
});
