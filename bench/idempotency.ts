// What an Idempotency-Key adds to PUT /api/v1/contacts/upsert (src/http/idempotency.ts): the
// same service, upserts of new contacts one at a time on a keep-alive connection, alternately
// with a fresh key (claimed, then its answer stored, before the answer is sent: two statements)
// and without one. Target (the issue's): the key adds under 1 ms at the p50.
import type { TestServer } from '../test/support/test-server.js';
import { figure, timed, type Figure } from './run.js';

export async function benchIdempotency(
  server: TestServer,
  apiKey: string,
  settings: { requests: number; warmup: number },
  log: (message: string) => void,
): Promise<Figure> {
  log('   what an Idempotency-Key adds to an upsert…');
  const url = `${server.baseUrl}/api/v1/contacts/upsert`;
  let phones = 2_000_000;
  let keys = 0;
  const upsert = async (keyed: boolean) => {
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    if (keyed) headers['idempotency-key'] = `bench-${process.pid}-${keys++}`;
    const body = JSON.stringify({ phone: `+1628${phones++}`, firstName: 'Bench' });
    const [ms, status] = await timed(async () => {
      const response = await fetch(url, { method: 'PUT', headers, body });
      await response.text();
      return response.status;
    });
    if (status !== 201) throw new Error(`upsert: HTTP ${status}`);
    return ms;
  };
  for (let i = 0; i < settings.warmup; i++) await Promise.all([upsert(true), upsert(false)]);
  const keyed: number[] = [];
  const unkeyed: number[] = [];
  for (let i = 0; i < settings.requests; i++) {
    // Alternate which goes first, so that neither always follows the other.
    if (i % 2 === 0) {
      keyed.push(await upsert(true));
      unkeyed.push(await upsert(false));
    } else {
      unkeyed.push(await upsert(false));
      keyed.push(await upsert(true));
    }
  }
  const result = figure(keyed, unkeyed, {
    id: 'idempotency-key-overhead',
    name: 'PUT /contacts/upsert (a new contact) with an Idempotency-Key, against without',
    target: 'adds < 1 ms (p50)',
    pass: () => null,
    notes:
      '"raw" here is the same upsert without the header: the difference is what claiming the key and storing the answer cost',
  });
  const added = Math.round((result.service.p50 - result.raw.p50) * 1000) / 1000;
  return { ...result, pass: added < 1, extra: { addedP50Ms: added } };
}
