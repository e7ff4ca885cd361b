// What the HTTP edge and the access log add to GET /api/v1/contacts/{id}: two apps over the
// same services and database, called in alternation one request at a time on keep-alive
// connections. One is the service as it runs: the rate limits on (far above the run, so none
// is refused; counted in memory on the embedded database, in leased slices of the shared quota
// table on PostgreSQL) and one access line per request, written as the service writes its log
// (pino, synchronously, to /dev/null here). The other has both limits off (0) and its access
// lines dropped (level silent). Target: the difference of the p50s is under 0.2 ms.
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../src/app.js';
import { createLogger } from '../src/logger.js';
import type { TestServer } from '../test/support/test-server.js';
import { figure, timed, type Figure } from './run.js';

export async function benchHttpEdge(
  server: TestServer,
  apiKey: string,
  settings: { requests: number; warmup: number },
  log: (message: string) => void,
): Promise<Figure> {
  log('   what the rate limits and the access log add to GET /contacts/{id}…');
  const created = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
    phone: '+14155550142',
    firstName: 'Edge',
  });
  if (created.status !== 200 && created.status !== 201) throw new Error(`upsert: HTTP ${created.status}`);
  const path = `/api/v1/contacts/${(created.json as { id: string }).id}`;
  const headers = { authorization: `Bearer ${apiKey}` };

  async function listen(options: Omit<Parameters<typeof createApp>[0], 'services'>) {
    const listener = createServer(createApp({ services: server.service.services, ...options })).listen(0, '127.0.0.1');
    await once(listener, 'listening');
    return { listener, base: `http://127.0.0.1:${(listener.address() as AddressInfo).port}` };
  }
  const devNull = pino.destination({ dest: '/dev/null', sync: true });
  const asRun = await listen({
    edge: { RATE_LIMIT_PER_KEY: 100_000_000, RATE_LIMIT_PER_ADDRESS: 100_000_000 },
    accessLogger: createLogger(devNull, 'info'),
  });
  const bare = await listen({
    edge: { RATE_LIMIT_PER_KEY: 0, RATE_LIMIT_PER_ADDRESS: 0 },
    accessLogger: createLogger(devNull, 'silent'),
  });

  const get = async (base: string) => {
    const [ms, status] = await timed(async () => {
      const response = await fetch(base + path, { headers });
      await response.text();
      return response.status;
    });
    if (status !== 200) throw new Error(`GET ${path}: HTTP ${status}`);
    return ms;
  };
  try {
    for (let i = 0; i < settings.warmup; i++) await Promise.all([get(asRun.base), get(bare.base)]);
    const withEdge: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < settings.requests; i++) {
      // Alternate which goes first, so that neither always follows the other.
      if (i % 2 === 0) {
        withEdge.push(await get(asRun.base));
        without.push(await get(bare.base));
      } else {
        without.push(await get(bare.base));
        withEdge.push(await get(asRun.base));
      }
    }
    const result = figure(withEdge, without, {
      id: 'edge-overhead',
      name: 'GET /contacts/{id} with the rate limits and the access log, against neither',
      target: 'adds < 0.2 ms (p50)',
      pass: () => null,
      notes:
        '"raw" here is the same app with both limits off and no access line: the ratio and the difference are what the edge costs',
    });
    const added = Math.round((result.service.p50 - result.raw.p50) * 1000) / 1000;
    return { ...result, pass: added < 0.2, extra: { addedP50Ms: added } };
  } finally {
    for (const { listener } of [asRun, bare]) {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  }
}
