// The repository's documents point only at things in the repository: every relative link,
// anchor and backticked path in README.md, ARCHITECTURE.md and docs/ resolves
// (scripts/check-doc-links.ts, run as a user would). A moved file breaks this test, not a reader.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

it('every link and path in the documents resolves', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/check-doc-links.ts'], {
    cwd: ROOT,
  }).catch((error: { stdout: string }) => {
    throw new Error(`scripts/check-doc-links.ts found problems:\n${error.stdout}`);
  });
  expect(stdout).toContain('every link and path resolves');
}, 60_000);
