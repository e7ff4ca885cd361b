// What the HTTP edge (rate limits and their headers, CORS, the unread-body rule) adds to
// GET /api/v1/contacts/{id}: two apps over the same services and database, one with both
// limits on (high enough that the run never meets them; slices of 100 as at the defaults),
// one with both off (0), called in alternation, one request at a
// time on keep-alive connections; p50 and p99 of each and their difference.
//
//   npx tsx bench/http-edge.ts                 on PGlite (in memory): limits counted in memory
//   BENCH_DATABASE_URL=postgres://… npx tsx bench/http-edge.ts    on PostgreSQL: leased slices
//   BENCH_REQUESTS=N                           requests per app (default 5000)
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/http/app.js';
import { startTestServer } from '../test/support/test-server.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5000);
const kind = process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite';
if (kind === 'postgres') process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;

const server = await startTestServer(kind);
const { apiKey } = await server.createAccount();
const created = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: '+14155550142', firstName: 'Bench' });
const path = `/api/v1/contacts/${created.json.id}`;

async function listen(edge: Parameters<typeof createApp>[0]['edge']) {
  const listener = createApp({ services: server.service.services, edge }).listen(0, '127.0.0.1');
  await once(listener, 'listening');
  return { listener, base: `http://127.0.0.1:${(listener.address() as AddressInfo).port}` };
}
// Limits far above the run, so that every request is served and none refused.
const limited = await listen({ RATE_LIMIT_PER_KEY: 10_000_000, RATE_LIMIT_PER_ADDRESS: 10_000_000 });
const unlimited = await listen({ RATE_LIMIT_PER_KEY: 0, RATE_LIMIT_PER_ADDRESS: 0 });
const headers = { authorization: `Bearer ${apiKey}` };

async function once_(base: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(base + path, { headers });
  await res.text();
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  return performance.now() - start;
}

const times = { limited: [] as number[], unlimited: [] as number[] };
for (let i = 0; i < 500; i++) await Promise.all([once_(limited.base), once_(unlimited.base)]);
for (let i = 0; i < REQUESTS; i++) {
  // Alternate which goes first, so that neither always follows the other.
  if (i % 2 === 0) {
    times.limited.push(await once_(limited.base));
    times.unlimited.push(await once_(unlimited.base));
  } else {
    times.unlimited.push(await once_(unlimited.base));
    times.limited.push(await once_(limited.base));
  }
}
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];
const row = (name: string, values: number[]) => `${name.padEnd(28)} p50 ${quantile(values, 0.5).toFixed(3)} ms   p99 ${quantile(values, 0.99).toFixed(3)} ms`;
console.log(`GET /api/v1/contacts/{id} on ${kind}, ${REQUESTS} requests each, sequential, keep-alive`);
console.log(row('rate limits on', times.limited));
console.log(row('rate limits off', times.unlimited));
console.log(`added by the limits: p50 ${(quantile(times.limited, 0.5) - quantile(times.unlimited, 0.5)).toFixed(3)} ms`);

for (const { listener } of [limited, unlimited]) {
  listener.closeAllConnections();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
}
await server.stop();
