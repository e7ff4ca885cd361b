// What console sign-ins do to the API: GET /api/v1/contacts/{id}, one request at a time, while
// N sign-ins with unknown emails are in flight at once (each loop posts the next as soon as its
// last is answered, or once that answer's Retry-After has passed when it was refused), against
// the same reads with no sign-in running. The service runs as its users run it, `contactline
// serve` in a process of its own (bench/load.ts's startServe), so that the flood's client is not
// on the server's event loop; its per-address limits are raised far above the run (a flood from
// many addresses), so what bounds the sign-ins is the password-hashing lane
// (src/domain/users/hashing-lane.ts).
//
// Idle and flood phases of equal length alternate (three rounds), so that the machine's other
// load falls on both; reads are paced (READ_PAUSE_MS apart) to spread over each phase.
// Figures: the read's p50 and p95 idle and during the flood, /healthz's idle and during, and
// how the sign-ins were answered (401 checked, 503 refused while the lane was full, anything
// else) with their own times. Target (the issue's): sign-in traffic moves API latency by no
// more than a few milliseconds: the p95 during the flood within 5 ms of the idle p95.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, type DatabaseKind } from '../test/support/databases.js';
import { createAccount, startServe } from './load.js';
import { figure, stats, timed, type Figure, type Stats } from './run.js';

export interface SignInBenchSettings {
  /** Sign-ins in flight at once. */
  parallel: number;
  /** Seconds of each idle and each flood phase (reads one at a time, a pause of READ_PAUSE_MS between). */
  phaseSeconds: number;
  warmup: number;
}

const TARGET_ADDED_P95_MS = 5;
/** Idle and flood phases alternate this many times. */
const ROUNDS = 3;
/** The pause between two reads, so that a phase's reads spread over it. */
const READ_PAUSE_MS = 10;

export async function benchSignInFlood(
  kind: DatabaseKind,
  settings: SignInBenchSettings,
  log: (message: string) => void,
): Promise<Figure> {
  log(`   API reads while ${settings.parallel} console sign-ins run at once (contactline serve)…`);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-bench-sign-in-'));
  const pgDatabase = kind === 'postgres' ? await createTestDatabase('postgres') : null;
  const env: Record<string, string> = pgDatabase
    ? { DATABASE_URL: pgDatabase.url! }
    : { DATA_DIR: path.join(workDir, 'data'), DATABASE_URL: '' };
  try {
    const serve = await startServe(
      { ...env, RATE_LIMIT_SIGN_IN_PER_ADDRESS: '100000000' },
      path.join(workDir, 'serve.log'),
    );
    try {
      const { apiKey } = await createAccount(serve.baseUrl);
      const created = await fetch(`${serve.baseUrl}/api/v1/contacts/upsert`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ phone: '+14155550199', firstName: 'Reader' }),
      });
      const contactPath = `/api/v1/contacts/${((await created.json()) as { id: string }).id}`;
      const get = async (urlPath: string, headers: Record<string, string> = {}) => {
        const [ms, status] = await timed(async () => {
          const response = await fetch(serve.baseUrl + urlPath, { headers });
          await response.text();
          return response.status;
        });
        if (status !== 200) throw new Error(`GET ${urlPath}: HTTP ${status}`);
        return ms;
      };
      const read = () => get(contactPath, { authorization: `Bearer ${apiKey}` });

      for (let i = 0; i < settings.warmup; i++) await read();

      // Each sign-in loop posts a sign-in of an unknown email as soon as its last is answered.
      let flooding = false;
      const answers: Record<string, number> = {};
      /** Each sign-in's time, checked (401) or refused (503, 429). */
      const checkedMs: number[] = [];
      const refusedMs: number[] = [];
      let sent = 0;
      const sleepWhileFlooding = async (ms: number) => {
        const until = performance.now() + ms;
        while (flooding && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
      };
      const loop = async (n: number) => {
        while (flooding) {
          const body = new URLSearchParams({ email: `nobody-${n}-${sent++}@example.com`, password: 'a guess, wrong' });
          const [ms, response] = await timed(async () => {
            const answer = await fetch(`${serve.baseUrl}/console/sign-in`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded', origin: serve.baseUrl },
              body: body.toString(),
              redirect: 'manual',
            });
            await answer.text();
            return answer;
          });
          answers[response.status] = (answers[response.status] ?? 0) + 1;
          (response.status === 401 ? checkedMs : refusedMs).push(ms);
          // A refused sign-in is tried again when the answer says, as a person (or a polite client) would.
          const retryAfter = Number(response.headers.get('retry-after'));
          if (retryAfter > 0) await sleepWhileFlooding(retryAfter * 1000);
        }
      };

      // Idle and flood reads in alternating rounds, so that a change in the machine's other load
      // falls on both sides alike.
      const idle: number[] = [];
      const during: number[] = [];
      const healthzIdle: number[] = [];
      const healthz: number[] = [];
      const reads = async (into: number[], probes: number[]) => {
        const end = performance.now() + settings.phaseSeconds * 1000;
        for (let i = 0; performance.now() < end; i++) {
          into.push(await read());
          if (i % 5 === 0) probes.push(await get('/healthz'));
          await new Promise((resolve) => setTimeout(resolve, READ_PAUSE_MS));
        }
      };
      for (let round = 0; round < ROUNDS; round++) {
        await reads(idle, healthzIdle);
        flooding = true;
        const started = sent;
        const loops = Array.from({ length: settings.parallel }, (_, n) => loop(n));
        // Reads start once every loop has posted its first sign-in.
        while (sent < started + settings.parallel) await new Promise((resolve) => setTimeout(resolve, 5));
        await reads(during, healthz);
        flooding = false;
        await Promise.all(loops);
      }

      const result = figure(during, idle, {
        id: 'api-read-during-sign-ins',
        name: `GET /contacts/{id} while ${settings.parallel} console sign-ins (unknown emails) run at once, against idle`,
        target: `adds < ${TARGET_ADDED_P95_MS} ms (p95)`,
        pass: () => null,
        notes:
          '"raw" here is the same read with no sign-in running; the service runs in a process of its own (contactline serve)',
      });
      const addedP95 = Math.round((result.service.p95 - result.raw.p95) * 100) / 100;
      const addedP50 = Math.round((result.service.p50 - result.raw.p50) * 100) / 100;
      const checked: Stats | null = checkedMs.length ? stats(checkedMs) : null;
      const refused: Stats | null = refusedMs.length ? stats(refusedMs) : null;
      log(
        `   reads idle p50 ${result.raw.p50} / p95 ${result.raw.p95} ms; during the flood p50 ${result.service.p50} / p95 ${result.service.p95} ms ` +
          `(/healthz p95 ${stats(healthzIdle).p95} idle, ${stats(healthz).p95} ms during); sign-ins ${JSON.stringify(answers)}, checked in p50 ${checked?.p50} / p95 ${checked?.p95} ms, refused in p50 ${refused?.p50} ms`,
      );
      return {
        ...result,
        pass: addedP95 < TARGET_ADDED_P95_MS,
        extra: {
          parallel: settings.parallel,
          addedP50Ms: addedP50,
          addedP95Ms: addedP95,
          healthzIdleMs: stats(healthzIdle),
          healthzDuringMs: stats(healthz),
          signInAnswers: answers,
          checkedSignInMs: checked,
          refusedSignInMs: refused,
        },
      };
    } finally {
      await serve.stop();
    }
  } finally {
    await pgDatabase?.drop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
