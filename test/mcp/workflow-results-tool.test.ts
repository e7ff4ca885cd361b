// The tool workflow_results_get through the SDK's Client against a real listening server, on each
// database: calls placed by the real dialer and ended by the simulator, then the tool's result is
// the REST body of GET /api/v1/workflows/{id}/results for the same arguments (by day in a zone,
// and by agent), and each failure is the REST error body; a key sees only its own Account.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone, upsertOk } from '../support/api-helpers.js';
import { callingSetup } from '../support/calling-setup.js';
import { writtenConsent } from '../support/consent.js';
import { testDatabaseKinds } from '../support/databases.js';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { callError, callOk, connect, type Connected, withoutRequestId } from './mcp-helpers.js';

// Monday 23 November 2026, 18:00 UTC: noon in Chicago, 10:00 in San Francisco (uniquePhone()'s numbers).
const MONDAY_NOON_CHICAGO = new Date('2026-11-23T18:00:00.000Z');
const FROM = '2026-11-23T00:00:00Z';
const TO = '2026-11-25T00:00:00Z';

describe.each(testDatabaseKinds())('workflow_results_get on %s', (kind) => {
  let server: TestServer;
  let mine: TestAccount;
  let theirs: TestAccount;
  let mcp: Connected;
  let other: Connected;
  let workflowId: string;
  const clock = { at: MONDAY_NOON_CHICAGO, now: () => clock.at };
  const rest = (query: string, key = mine.apiKey) =>
    server.request(key, 'GET', `/api/v1/workflows/${workflowId}/results?${query}`);

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    [mine, theirs] = await Promise.all([server.createAccount(), server.createAccount()]);
    const setup = await callingSetup(server, mine.accountId);
    workflowId = setup.workflowId;
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    for (const phone of phones)
      await upsertOk(server, mine.apiKey, {
        phone,
        assignmentOptions: { workflowId },
        consent: writtenConsent(server.now()),
      });
    const placed = await setup.dial({
      [phones[0]]: { result: 'converted', durationSeconds: 150 },
      [phones[1]]: { result: 'voicemail', durationSeconds: 20 },
      [phones[2]]: { result: 'answered', durationSeconds: 45 },
    });
    expect(placed).toHaveLength(3);
    [mcp, other] = await Promise.all([connect(server, mine.apiKey), connect(server, theirs.apiKey)]);
  });
  afterAll(async () => {
    await mcp?.close();
    await other?.close();
    await server?.stop();
  });

  it('is listed read-only, with the REST parameters as arguments', async () => {
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === 'workflow_results_get');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(Object.keys(tool?.inputSchema.properties ?? {}).sort()).toEqual([
      'from',
      'groupBy',
      'timeZone',
      'to',
      'workflowId',
    ]);
    expect(tool?.inputSchema.required).toEqual(['workflowId']);
  });

  it('answers the REST body, by day in a zone and by agent', async () => {
    const byDay = await callOk(mcp.client, 'workflow_results_get', {
      workflowId,
      from: FROM,
      to: TO,
      timeZone: 'America/Chicago',
    });
    const viaRest = await rest(`from=${FROM}&to=${TO}&timeZone=America/Chicago`);
    expect(viaRest.status).toBe(200);
    expect(byDay).toEqual(viaRest.json);
    expect(byDay.totals).toMatchObject({ calls: 3, connected: 2, attempted: 3, reached: 2, converted: 1 });
    expect(byDay.days).toEqual([
      {
        date: '2026-11-23',
        calls: 3,
        results: [
          { result: 'converted', count: 1 },
          { result: 'answered', count: 1 },
          { result: 'voicemail', count: 1 },
        ],
      },
    ]);
    const byAgent = await callOk(mcp.client, 'workflow_results_get', {
      workflowId,
      from: FROM,
      to: TO,
      groupBy: 'agent',
    });
    expect(byAgent).toEqual((await rest(`from=${FROM}&to=${TO}&groupBy=agent`)).json);
    expect(byAgent.agents).toHaveLength(1);
  });

  it('fails as REST does: 404 for an unknown or another Account’s workflow, 400 for bad arguments', async () => {
    const unknown = await callError(mcp.client, 'workflow_results_get', { workflowId: randomUUID() });
    expect(unknown.code).toBe('not_found');
    const theirsBody = await callError(other.client, 'workflow_results_get', { workflowId });
    const theirsRest = await rest('', theirs.apiKey);
    expect(theirsRest.status).toBe(404);
    expect(withoutRequestId(theirsBody)).toEqual(withoutRequestId(theirsRest.json));
    const backwards = await callError(mcp.client, 'workflow_results_get', { workflowId, from: TO, to: FROM });
    expect(withoutRequestId(backwards)).toEqual(withoutRequestId((await rest(`from=${TO}&to=${FROM}`)).json));
    expect(backwards).toMatchObject({ code: 'bad_request', issues: [{ path: 'to', message: 'must be after from' }] });
    const zone = await callError(mcp.client, 'workflow_results_get', { workflowId, timeZone: 'Mars/Olympus_Mons' });
    expect(withoutRequestId(zone)).toEqual(withoutRequestId((await rest('timeZone=Mars/Olympus_Mons')).json));
  });
});
