// Stored work survives a SIGKILL right after its 202 and is applied after a restart, without
// waiting for anything but the new process's start, ten times in a row on each database, for bulk
// imports and for a bulk-update, with nothing lost and nothing doubled. The bound is generous (a
// second or two on a quiet machine, as docs/rest-api.md says): the suite runs beside another
// file, and its subject is that the work is picked up and applied exactly once, not how fast.
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds, type DatabaseKind } from '../support/databases.js';
import { databaseForServiceProcesses, killService, startServiceProcess } from '../support/service-process.js';

const RUNS = 10;
/** The bound: stored work is picked up and applied within 30 s of a start, even on a busy machine. */
const RECOVERY_BOUND_MS = 30_000;
const BATCH = 1000;

/** Batch `batch` (0-2) of run `run` (0-9): unique phones and external ids, one first name per run. */
function contactsOf(run: number, batch: number) {
  return Array.from({ length: BATCH }, (_, i) => ({
    sourceKind: 'csv',
    externalId: `r${run}-b${batch}-${i}`,
    firstName: `Run${run}`,
    phone: `+14155${batch}${run}${String(i).padStart(4, '0')}`,
  }));
}

describe.each(testDatabaseKinds())('stored work after a SIGKILL on %s', (kind: DatabaseKind) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it(`applies imports and a bulk-update accepted just before a kill within ${RECOVERY_BOUND_MS / 1000} s of the restart, ${RUNS} times`, async () => {
    const { env, apiKey: key } = await databaseForServiceProcesses(kind, cleanups, 'crash');

    const api = (baseUrl: string, method: string, route: string, body?: unknown) =>
      fetch(`${baseUrl}${route}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        // A service that stops answering fails the test here, naming the request.
        signal: AbortSignal.timeout(60_000),
      });
    /** The contacts of one run, read through the list's pages (newest first). */
    const contactsOfRun = async (baseUrl: string, run: number) => {
      const all: Array<{ externalId: string; customFields: Record<string, unknown> | null }> = [];
      let token: string | undefined;
      do {
        const res = await api(
          baseUrl,
          'GET',
          `/api/v1/contacts?limit=100&searchTerm=Run${run}${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`,
        );
        expect(res.status).toBe(200);
        const page = (await res.json()) as { data: typeof all; nextToken?: string };
        all.push(...page.data);
        token = page.nextToken;
      } while (token);
      return all;
    };
    /** Polls `check` until it holds or the bound since `listening` has passed; returns whether it held in time. */
    const withinBound = async (listening: number, check: () => Promise<boolean>) => {
      for (;;) {
        if (await check()) return true;
        if (Date.now() - listening > RECOVERY_BOUND_MS) return false;
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    /** Three imports of `run` at once. */
    const postImports = (baseUrl: string, run: number) =>
      Promise.all(
        [0, 1, 2].map((b) =>
          api(baseUrl, 'POST', '/api/v1/contacts/bulk', { contacts: contactsOf(run, b) }).then(async (r) => ({
            status: r.status,
            body: await r.json(),
          })),
        ),
      );
    /** A bulk-update of the contacts of `run`. */
    const postUpdate = (baseUrl: string, run: number) =>
      api(baseUrl, 'POST', '/api/v1/contacts/bulk-update', {
        filter: { firstName: `Run${run}` },
        data: { customFields: { touched: `run-${run}` } },
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    /** The imports of `run` were applied exactly once, and each import's job says so. */
    const expectImportsApplied = async (
      baseUrl: string,
      listeningAt: number,
      run: number,
      answers: Array<{ body: any }>,
    ) => {
      // A batch is written in one transaction: its last contact stands for all of it.
      const imported = await withinBound(listeningAt, async () => {
        const found = await Promise.all(
          [0, 1, 2].map((b) =>
            api(baseUrl, 'GET', `/api/v1/contacts/source/csv/external-id/r${run}-b${b}-${BATCH - 1}`).then(
              async (r) => {
                await r.arrayBuffer();
                return r.status;
              },
            ),
          ),
        );
        return found.every((status) => status === 200);
      });
      expect(imported, `run ${run}: imports applied within the bound`).toBe(true);
      // Each import's job says so, counted once however many runs the batch had. (The run's
      // contacts themselves are read once, after its bulk-update: expectUpdateApplied.)
      for (const { body } of answers) {
        const job = await api(baseUrl, 'GET', `/api/v1/imports/${body.importId}`).then((r) => r.json());
        expect(job, `run ${run}: import ${body.importId}`).toMatchObject({
          status: 'done',
          accepted: BATCH,
          created: BATCH,
          updated: 0,
          rejected: [],
        });
      }
    };

    /**
     * The bulk-update of `run` changed each of its contacts exactly once, and its job says so; the
     * run's contacts are there once each (its imports, applied a restart earlier, lost nothing and
     * doubled nothing across both restarts).
     */
    const expectUpdateApplied = async (baseUrl: string, listeningAt: number, run: number, updateId: string) => {
      // Chunks apply oldest first, and the run's newest contact (the list's first) is the
      // run's newest: once it is updated, every chunk before it is committed too.
      const updated = await withinBound(listeningAt, async () => {
        const res = await api(baseUrl, 'GET', `/api/v1/contacts?limit=1&searchTerm=Run${run}`);
        const [newest] = ((await res.json()) as { data: Array<{ customFields: Record<string, unknown> | null }> }).data;
        return newest?.customFields?.touched === `run-${run}`;
      });
      expect(updated, `run ${run}: bulk-update applied within the bound`).toBe(true);
      const after = await contactsOfRun(baseUrl, run);
      expect(after).toHaveLength(3 * BATCH);
      expect(new Set(after.map((c) => c.externalId)).size).toBe(3 * BATCH);
      expect(after.filter((c) => c.customFields?.touched === `run-${run}`)).toHaveLength(3 * BATCH);
      // Its last chunk committed with the newest contact's change: the job is done, each contact counted once.
      const job = await api(baseUrl, 'GET', `/api/v1/bulk-updates/${updateId}`).then((r) => r.json());
      expect(job, `run ${run}: bulk-update`).toMatchObject({
        status: 'done',
        matched: 3 * BATCH,
        changed: 3 * BATCH,
        skippedCount: 0,
      });
    };

    // Each kill falls right after the 202s of run N's three imports and of run N-1's
    // bulk-update, sent together: one restart recovers both kinds of stored work (eleven
    // restarts for ten runs of each, rather than twenty).
    let service = await startServiceProcess(env);
    cleanups.push(() => killService(service.child));
    for (let run = 0; run <= RUNS; run++) {
      const [answers, update] = await Promise.all([
        run < RUNS ? postImports(service.baseUrl, run) : undefined,
        run > 0 ? postUpdate(service.baseUrl, run - 1) : undefined,
      ]);
      await killService(service.child);
      if (answers)
        expect(answers).toEqual(
          [0, 1, 2].map(() => ({ status: 202, body: { importId: expect.any(String), accepted: BATCH, rejected: [] } })),
        );
      if (update) expect(update).toEqual({ status: 202, body: { updateId: expect.any(String) } });

      service = await startServiceProcess(env);
      if (process.env.DEBUG_CRASH) console.log(`run ${run}: restarted`, new Date().toISOString());
      if (answers) await expectImportsApplied(service.baseUrl, service.listeningAt, run, answers);
      if (update) await expectUpdateApplied(service.baseUrl, service.listeningAt, run - 1, update.body.updateId);
    }
  }, 1_200_000);
});
