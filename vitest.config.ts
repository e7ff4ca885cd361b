import { createRequire } from 'node:module';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const require = createRequire(import.meta.url);

// `npm run test:quick` (TEST_QUICK=1, embedded database only): the unit, API, edge and tool server
// suites for the edit loop, without the ones that spend minutes on one subject: the browser, the
// CLI and the integrations (child processes and emulators), kill -9 and restart, the input
// fuzzers, the 30,000-contact bulk-update. `npm test` runs everything but the many-process
// topology.
//
// `npm run test:topology` (TEST_TOPOLOGY=1): the many-process topology alone (a PostgreSQL primary
// and replica, PgBouncer, HAProxy, five service processes; it needs root and Debian's
// postgresql, pgbouncer and haproxy packages). CI runs it after `npm test`; `npm test` leaves it
// out, so that the suite a developer runs needs no more than PostgreSQL and keeps to ten minutes.
const TOPOLOGY_FILES = ['test/topology/**'];
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

// Seconds each of the longest files took in a full run on a 2-core machine (npm test, embedded
// database). Two files run at a time, so the run ends when the longer worker's queue does: the
// longest files must start first, or one of them starts last and runs alone at the end. Vitest
// orders by the durations of the previous run, kept in node_modules/.vite; a fresh clone has
// none, and these stand in for them until it has.
const EXPECTED_SECONDS: Record<string, number> = {
  'test/api/crash-recovery.test.ts': 118,
  'test/api/bulk-update-chunks.test.ts': 72,
  'test/cli/cli.test.ts': 70,
  'test/browser/console.test.ts': 59,
  'test/api/calling-rules-simulation.test.ts': 43,
  'test/api/list-shapes.test.ts': 43,
  'test/api/fuzz-graphql.test.ts': 29,
  'test/browser/console-campaigns.test.ts': 29,
  'test/cli/calling-policy.test.ts': 28,
  'test/integration/monday-trigger-restart.test.ts': 26,
  'test/cli/serve-roles.test.ts': 20,
  'test/api/fuzz-rest.test.ts': 19,
  'test/integration/voice-providers.test.ts': 19,
  'test/integration/monday-board-app.test.ts': 18,
  'test/integration/monday-link.test.ts': 18,
  'test/api/console.test.ts': 17,
  'test/topology/topology.test.ts': 31,
};

/** Longest first: by the last run's duration where vitest kept one, else by EXPECTED_SECONDS. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const seconds = (file: TestSpecification) => {
      const key = path.relative(this.ctx.config.root, file.moduleId);
      const last = this.ctx.cache.getFileTestResults(`${file.project.name}:${key}`);
      return last ? last.duration / 1000 : (EXPECTED_SECONDS[key] ?? 0);
    };
    // A stable sort: files of equal weight keep vitest's order (larger files first).
    return bySize.sort((a, b) => seconds(b) - seconds(a));
  }
}

export default defineConfig({
  // Pothos loads graphql through require() (CommonJS); vite would otherwise load the ESM
  // build for our own imports, and graphql refuses schemas from "another realm".
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    include: process.env.TEST_TOPOLOGY ? ['test/topology/*.test.ts'] : ['test/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.TEST_QUICK ? SLOW_FILES : []),
      ...(process.env.TEST_TOPOLOGY ? [] : TOPOLOGY_FILES),
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time: the suites spend much of their time waiting on servers, child
    // processes and the database, so two workers keep a 2-core machine busy (vitest's default
    // is one fewer worker than cores: one, here).
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
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
