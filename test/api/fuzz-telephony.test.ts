// Property-based fuzzing of POST /api/telephony/events (fast-check), signed as a provider signs:
// every field of each event type, about a call the dialer really placed, gets generated hostile
// values (NUL, lone surrogates, huge strings, deep JSON, wrong types), and so do whole bodies.
// No answer is a 5xx, and a refused event records nothing (its id is not taken, the call and its
// transcript are unchanged).
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { fuzzOptions, hostileValue, toJson } from '../support/hostile-values.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import { createSimulatedTelephony } from '../../src/calls/telephony/simulator.adapter.js';
import { SIGNATURE_HEADER, signEvent } from '../../src/calls/telephony/signature.js';
import type { TelephonyEvent } from '../../src/calls/telephony/telephony.port.js';
import { DEFAULT_WORKING_HOURS } from '../../src/domain/calls/calling-hours.rules.js';
import { writtenConsent } from '../support/consent.js';

// Monday 23 November 2026, 10:00 in Chicago: inside the agent's working hours and the law's calling hours.
const NOW = new Date('2026-11-23T16:00:00.000Z');
const SECRET = 'whsec-fuzz-0123456789abcdef';
const PATH = '/api/telephony/events';

describe.each(testDatabaseKinds())('telephony events fuzz on %s', (kind) => {
  let server: TestServer;
  let events: TelephonyEvent[];
  const clock = { now: () => NOW };

  beforeAll(async () => {
    server = await startTestServer(kind, { clock, telephonyWebhookSecrets: SECRET });
    const prisma = server.service.services.db.prisma;
    const account = await server.createAccount();
    const agent = await prisma.agent.create({
      data: {
        createdAt: NOW,
        updatedAt: NOW,
        accountId: account.accountId,
        name: 'Ava',
        status: 'live',
        timezone: 'America/Chicago',
        defaultLanguage: 'en-US',
        attemptLimit: 3,
        workingHours: DEFAULT_WORKING_HOURS as object,
        retryDelayMinutes: 60,
        callNewContactsImmediately: false,
        phoneNumber: '+13125550199',
      },
    });
    const workflow = await prisma.workflow.create({
      data: {
        createdAt: NOW,
        updatedAt: NOW,
        accountId: account.accountId,
        agentId: agent.id,
        name: 'W',
        status: 'published',
      },
    });
    const upsert = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+13125561000',
      assignmentOptions: { workflowId: workflow.id },
      // A US telemarketing call needs the contact's prior express written consent.
      consent: writtenConsent(NOW),
    });
    expect(upsert.status, upsert.text).toBe(201);
    events = [];
    const recorder = createSimulatedTelephony({
      sink: async (e) => void events.push(e),
      delayMs: 0,
      script: { '+13125561000': { result: 'answered', durationSeconds: 90 } },
    });
    await runDialerOnce(server.service.services, recorder);
    await recorder.settled();
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['call.started', 'call.ended', 'report.ready']));
  });
  afterAll(() => server?.stop());

  const prisma = () => server.service.services.db.prisma;
  const stored = async () => ({
    processed: await prisma().processedEvent.count(),
    calls: await prisma().call.findMany({ orderBy: { id: 'asc' } }),
    utterances: await prisma().callUtterance.count(),
  });

  async function post(body: string): Promise<void> {
    const before = await stored();
    const res = await server.request(null, 'POST', PATH, body, {
      [SIGNATURE_HEADER]: signEvent(body, SECRET, Math.floor(NOW.getTime() / 1000)),
      'content-type': 'application/json',
    });
    expect(res.status, res.text.slice(0, 500)).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.json).toMatchObject({ code: expect.any(String), requestId: res.headers.get('x-request-id') });
      expect(await stored()).toEqual(before);
    }
  }

  const template = (type: TelephonyEvent['type']): Record<string, unknown> => ({
    ...events.find((e) => e.type === type)!,
    eventId: randomUUID(),
  });
  const fieldsOf = (type: TelephonyEvent['type']) => Object.keys(template(type)).filter((f) => f !== 'type');

  it.each(['call.started', 'call.ended', 'report.ready'] as const)('every field of %s', async (type) => {
    for (const field of [
      ...fieldsOf(type),
      ...(type === 'report.ready' ? ['utterances.0.content', 'utterances.0.speaker', 'utterances.0.timestamp'] : []),
    ]) {
      await fc.assert(
        fc.asyncProperty(hostileValue, async (value) => {
          const event = template(type);
          const [head, index, leaf] = field.split('.');
          if (leaf) (event[head] as Array<Record<string, unknown>>)[Number(index)][leaf] = value;
          else event[head] = value;
          await post(toJson(event));
        }),
        fuzzOptions(10),
      );
    }
  });

  it('every field of call.inbound', async () => {
    const inbound = {
      type: 'call.inbound',
      callId: randomUUID(),
      occurredAt: NOW.toISOString(),
      from: '+13125567777',
      to: '+13125550199',
    };
    for (const field of ['callId', 'occurredAt', 'from', 'to']) {
      await fc.assert(
        fc.asyncProperty(hostileValue, async (value) => {
          await post(toJson({ ...inbound, eventId: randomUUID(), callId: randomUUID(), [field]: value }));
        }),
        fuzzOptions(10),
      );
    }
  });

  it('whole bodies of any JSON shape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileValue, fc.jsonValue({ maxDepth: 3 })), async (body) => {
        await post(toJson(body));
      }),
      fuzzOptions(30),
    );
  });
});
