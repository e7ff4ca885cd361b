// A workflow's results through a real listening server, with calls placed by the real dialer and
// ended by the simulator as scripted: exact counts per result, per day in a time zone (a day
// boundary between UTC and Chicago), the rates, the durations' median and p90, attempts per
// conversion, the figures per agent, an erased contact's call counted apart, the same answer
// through GraphQL, and each bad input answered with the contract's error body.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, uniquePhone, upsertOk, useServerWithAccount } from '../support/api-helpers.js';
import { callingSetup } from '../support/calling-setup.js';
import { writtenConsent } from '../support/consent.js';

// Monday 23 November 2026, 17:30 UTC: 11:30 in Chicago, 09:30 in San Francisco (uniquePhone()'s
// numbers), inside the law's calling hours (09:00-21:00 in California).
const MONDAY_MORNING = new Date('2026-11-23T17:30:00.000Z');
// 04:00 UTC on Tuesday: still Monday 22:00 in Chicago, 20:00 in San Francisco.
const MONDAY_EVENING = new Date('2026-11-24T04:00:00.000Z');
const ALL_DAY = { start: '00:00', end: '24:00' };
const EVERY_DAY = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [ALL_DAY]]));
const WINDOW = 'from=2026-11-23T00:00:00Z&to=2026-11-25T00:00:00Z';

/** Every one of the 21 results with its count (those not given: 0), in the contract's order. */
function allResults(counts: Record<string, number>) {
  const order = [
    'converted',
    'disqualified',
    'wrong_language',
    'not_interested',
    'do_not_call',
    'answered',
    'contact_verified',
    'identified',
    'qualified',
    'callback_requested',
    'neutral_value_call',
    'busy',
    'human_busy',
    'no_answer',
    'voicemail',
    'ivr',
    'invalid_number',
    'wrong_number',
    'carrier_blocked',
    'unknown',
    'new',
  ];
  return order.map((result) => ({ result, count: counts[result] ?? 0 }));
}

describe.each(testDatabaseKinds())('workflow results on %s', (kind) => {
  const clock = {
    at: MONDAY_MORNING,
    now() {
      return this.at;
    },
  };
  const { server, account } = useServerWithAccount(kind, { clock });
  const get = (path: string, key = account.apiKey) => server.request(key, 'GET', path);
  const resultsPath = (id: string, query = WINDOW) => `/api/v1/workflows/${id}/results?${query}`;

  let workflowId: string;
  let agentId: string;
  let erasable: { id: string };

  it('counts the calls the dialer placed: results, days in a zone, rates, durations, attempts per conversion', async () => {
    clock.at = MONDAY_MORNING;
    const setup = await callingSetup(server, account.accountId, { workingHours: EVERY_DAY });
    ({ workflowId, agentId } = setup);
    const [ana, ben, cleo, dan] = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];
    const enrolled: Array<{ id: string }> = [];
    for (const phone of [ana, ben, cleo, dan])
      enrolled.push(
        await upsertOk(server, account.apiKey, {
          phone,
          assignmentOptions: { workflowId },
          consent: writtenConsent(server.now()),
        }),
      );
    erasable = enrolled[2];
    const first = await setup.dial({
      [ana]: { result: 'no_answer', durationSeconds: 0, nextAttemptInMinutes: 60 },
      [ben]: { result: 'converted', durationSeconds: 120 },
      [cleo]: { result: 'not_interested', durationSeconds: 60 },
      [dan]: { result: 'voicemail', durationSeconds: 20, nextAttemptInMinutes: 60 },
    });
    expect(first).toHaveLength(4);
    clock.at = MONDAY_EVENING;
    const second = await setup.dial({
      [ana]: { result: 'converted', durationSeconds: 210 },
      [dan]: { result: 'no_answer', durationSeconds: 0, nextAttemptInMinutes: 60 },
    });
    expect(second).toHaveLength(2);

    const chicago = await get(resultsPath(workflowId, `${WINDOW}&timeZone=America/Chicago`));
    expect(chicago.status, chicago.text).toBe(200);
    expect(chicago.json).toEqual({
      workflowId,
      from: '2026-11-23T00:00:00.000Z',
      to: '2026-11-25T00:00:00.000Z',
      timeZone: 'America/Chicago',
      groupBy: 'day',
      totals: {
        enrolled: 4,
        attempted: 4,
        reached: 3,
        converted: 2,
        calls: 6,
        connected: 3,
        connectRate: 0.5,
        conversionRate: 0.5,
        // Connected: 60, 120 and 210 seconds (the unanswered calls' durations do not count).
        durationMedianSeconds: 120,
        durationP90Seconds: 210,
        // Ana converted on her second call, Ben on his first.
        attemptsPerConversion: 1.5,
        results: allResults({ converted: 2, not_interested: 1, no_answer: 2, voicemail: 1 }),
      },
      // Both dials were on Monday in Chicago.
      days: [
        {
          date: '2026-11-23',
          calls: 6,
          results: [
            { result: 'converted', count: 2 },
            { result: 'not_interested', count: 1 },
            { result: 'no_answer', count: 2 },
            { result: 'voicemail', count: 1 },
          ],
        },
      ],
      agents: [],
    });
    // In UTC the evening calls fall on Tuesday; UTC is the default zone.
    const utc = await get(resultsPath(workflowId));
    expect(utc.json.timeZone).toBe('UTC');
    expect(utc.json.days).toEqual([
      {
        date: '2026-11-23',
        calls: 4,
        results: [
          { result: 'converted', count: 1 },
          { result: 'not_interested', count: 1 },
          { result: 'no_answer', count: 1 },
          { result: 'voicemail', count: 1 },
        ],
      },
      {
        date: '2026-11-24',
        calls: 2,
        results: [
          { result: 'converted', count: 1 },
          { result: 'no_answer', count: 1 },
        ],
      },
    ]);
    expect(utc.json.totals).toEqual(chicago.json.totals);
    // A window of Monday UTC only: the evening calls are out, and so are none of the enrollments.
    const morning = await get(resultsPath(workflowId, 'from=2026-11-23T00:00:00Z&to=2026-11-24T00:00:00Z'));
    expect(morning.json.totals).toMatchObject({ enrolled: 4, attempted: 4, calls: 4, converted: 1, connected: 2 });
    expect(morning.json.totals.attemptsPerConversion).toBe(1);
    // Before anything happened: zeros, and null rates.
    const empty = await get(resultsPath(workflowId, 'from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z'));
    expect(empty.json.totals).toEqual({
      enrolled: 0,
      attempted: 0,
      reached: 0,
      converted: 0,
      calls: 0,
      connected: 0,
      connectRate: null,
      conversionRate: null,
      durationMedianSeconds: null,
      durationP90Seconds: null,
      attemptsPerConversion: null,
      results: allResults({}),
    });
    expect(empty.json.days).toEqual([]);
  });

  it('groupBy=agent gives the same figures per agent; GraphQL answers what REST does', async () => {
    const byAgent = await get(resultsPath(workflowId, `${WINDOW}&groupBy=agent`));
    expect(byAgent.status, byAgent.text).toBe(200);
    expect(byAgent.json.days).toEqual([]);
    const totals = byAgent.json.totals;
    expect(byAgent.json.agents).toEqual([{ agentId, figures: { ...totals, enrolled: null } }]);
    const gql = await server.request(account.apiKey, 'POST', '/graphql', {
      query: `query ($id: String!, $from: String, $to: String, $groupBy: String) {
        workflowResults(id: $id, from: $from, to: $to, groupBy: $groupBy) {
          workflowId from to timeZone groupBy
          totals { enrolled attempted reached converted calls connected connectRate conversionRate
            durationMedianSeconds durationP90Seconds attemptsPerConversion results { result count } }
          days { date calls results { result count } }
          agents { agentId figures { enrolled attempted reached converted calls connected connectRate conversionRate
            durationMedianSeconds durationP90Seconds attemptsPerConversion results { result count } } }
        } }`,
      variables: { id: workflowId, from: '2026-11-23T00:00:00Z', to: '2026-11-25T00:00:00Z', groupBy: 'agent' },
    });
    expect(gql.json).toEqual({ data: { workflowResults: byAgent.json } });
  });

  it("still counts an erased contact's call and enrollment everywhere: the roll-ups name no contact", async () => {
    const before = (await get(resultsPath(workflowId, `${WINDOW}&timeZone=America/Chicago`))).json;
    expect((await server.request(account.apiKey, 'DELETE', `/api/v1/contacts/${erasable.id}`)).status).toBe(204);
    const after = (await get(resultsPath(workflowId, `${WINDOW}&timeZone=America/Chicago`))).json;
    expect(after).toEqual(before);
    expect(after.totals.results.find((r: { result: string }) => r.result === 'not_interested').count).toBe(1);
  });

  it('widens the window to whole UTC hours, and says so', async () => {
    const res = await get(resultsPath(workflowId, 'from=2026-11-23T17:45:00Z&to=2026-11-24T04:00:00.001Z'));
    expect(res.json).toMatchObject({ from: '2026-11-23T17:00:00.000Z', to: '2026-11-24T05:00:00.000Z' });
    expect(res.json.totals.calls).toBe(6);
    // A half-hour zone: each hour counts in the day it starts in (India, UTC+05:30).
    const kolkata = await get(resultsPath(workflowId, `${WINDOW}&timeZone=asia/calcutta`));
    expect(kolkata.json.timeZone).toBe('Asia/Kolkata');
    expect(kolkata.json.days.map((d: { date: string; calls: number }) => [d.date, d.calls])).toEqual([
      ['2026-11-23', 4],
      ['2026-11-24', 2],
    ]);
  });

  it('answers each bad input with the contract error body: 400, 401, 404', async () => {
    const issue = async (query: string, path: string) => {
      const res = await get(resultsPath(workflowId, query));
      expectError(res, 400, 'bad_request', ['issues']);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toContain(path);
    };
    await issue('from=2026-11-25T00:00:00Z&to=2026-11-23T00:00:00Z', 'to');
    await issue('from=2026-11-23T00:00:00Z&to=2026-11-23T00:00:00Z', 'to');
    await issue('groupBy=week', 'groupBy');
    await issue('timeZone=Mars/Olympus_Mons', 'timeZone');
    await issue('from=2025-01-01T00:00:00Z&to=2026-11-23T00:00:00Z', 'from');
    await issue('from=yesterday', 'from');
    await issue('sort=day', 'sort');
    expectError(await get('/api/v1/workflows/not-a-uuid/results'), 400, 'bad_request');
    expectError(await get(resultsPath(randomUUID())), 404, 'not_found');
    const other = await server.createAccount();
    expectError(await get(resultsPath(workflowId), other.apiKey), 404, 'not_found');
    expectError(await server.request(null, 'GET', resultsPath(workflowId)), 401, 'unauthenticated');
  });
});
