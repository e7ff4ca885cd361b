// The demo of the README's tour and docs/calls.md: on a brand-new embedded database, enroll a
// contact with the demo key and workflow; the background dialer and the simulated agent call it;
// the call and its transcript can be read within seconds. The contact carries its prior express
// written consent, and the service's time starts inside the law's calling hours wherever the
// contact may be (src/domain/calling-rules/): without either, the dialer would not call it.
import { afterAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service.js';
import { loadEnv } from '../../src/config/env.js';
import { clockFrom } from '../support/clocks.js';
import { writtenConsent } from '../support/consent.js';

/** Monday 23 November 2026, 10:00 in San Francisco, the demo contact's area: inside the law's calling hours. */
const MONDAY_10_SAN_FRANCISCO = new Date('2026-11-23T18:00:00.000Z');

describe('demo walk-through on the embedded database', () => {
  let service: RunningService | undefined;
  afterAll(() => service?.stop());

  it('calls an enrolled demo contact and serves the call and its transcript', async () => {
    // The configuration `npm start` gets: the defaults (simulated calls paced as in production),
    // on a clock that starts at a time the law allows the call and moves with the real time.
    const clock = clockFrom(MONDAY_10_SAN_FRANCISCO);
    service = await startService({
      env: { ...loadEnv({ PORT: '0', HOST: '127.0.0.1' }), DATA_DIR: '' },
      inMemory: true,
      seedDemo: true,
      clock,
    });
    const demo = service.demo!;
    expect(demo.apiKey).toMatch(/^svc_pk_/);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(service!.baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));

    const upsert = await call('PUT', '/api/v1/contacts/upsert', {
      phone: '+14155552672',
      firstName: 'Ada',
      lastName: 'Lovelace',
      externalId: 'demo-1',
      assignmentOptions: { workflowId: demo.workflowId },
      consent: writtenConsent(clock.now()),
    });
    expect(upsert.status).toBe(201);
    expect(upsert.json).toMatchObject({ status: 'assigned', assignedWorkflowId: demo.workflowId, maxAttempts: 3 });

    let calls: any[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      calls = (await call('GET', '/api/v1/contacts/source/api/external-id/demo-1/calls')).json.data;
      if (calls[0]?.transcriptAvailable) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const readAt = clock.now().getTime();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ status: 'ended', result: 'converted', lastCall: true, transcriptAvailable: true });
    // The simulated call lasted what it reports: no time it reported is later than when we read it.
    const { startedAt, endedAt, durationSeconds } = calls[0];
    expect(Date.parse(endedAt)).toBeLessThanOrEqual(readAt);
    expect(Math.abs(Date.parse(endedAt) - Date.parse(startedAt) - durationSeconds * 1000)).toBeLessThan(1000);
    const transcript = await call('GET', `/api/v1/calls/${calls[0].id}/transcript`);
    expect(transcript.json.utterances.length).toBeGreaterThan(2);
    for (const u of transcript.json.utterances) expect(Date.parse(u.timestamp)).toBeLessThanOrEqual(readAt);
    const contact = await call('GET', '/api/v1/contacts/source/api/external-id/demo-1');
    expect(contact.json).toMatchObject({ status: 'converted', callCount: 1 });
  }, 40_000);
});
