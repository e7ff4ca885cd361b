// The calling rules through the REST API, on a listening server with a controlled clock and the
// simulator: the Account's calling policy (defaults, changes recorded with who made them, bad
// input refused with nothing changed), consents (recorded, listed, revoked; revoked by a
// do_not_call result), the dialing explanation agreeing with what the dialer does, the law
// holding for enforceCallNow, and the audit of each placed call.
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import { createSimulatedTelephony, type SimulatedTelephony } from '../../src/calls/telephony/simulator.adapter.js';
import { applyTelephonyEvent } from '../../src/domain/calls/call-events.service.js';
import { writtenConsent } from '../support/consent.js';

// Monday 30 November 2026, 10:00 in Chicago (UTC-6), 11:00 in New York, 17:00 in Paris.
const MONDAY_10_CHICAGO = new Date('2026-11-30T16:00:00.000Z');
const HOUR = 3_600_000;

describe.each(testDatabaseKinds())('calling rules on %s', (kind) => {
  let server: TestServer;
  const clock = {
    at: MONDAY_10_CHICAGO,
    now() {
      return this.at;
    },
  };
  let telephony: SimulatedTelephony;
  let seq = 0;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    telephony = createSimulatedTelephony({
      sink: async (event) => {
        await applyTelephonyEvent(server.service.services, event);
      },
      delayMs: 0,
    });
  });
  afterAll(() => server?.stop());

  const prisma = () => server.service.services.db.prisma;
  const dial = async () => {
    const run = await runDialerOnce(server.service.services, telephony);
    await telephony.settled();
    return run.placed.map((p) => p.contactId);
  };
  const chicagoPhone = () => `+1312556${String(1000 + seq++).padStart(4, '0')}`;

  /** An Account with a live agent (weekdays 09:00–17:00 Chicago; new contacts called at once) and a published workflow. */
  async function account() {
    const acct = await server.createAccount();
    const agent = await prisma().agent.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: acct.accountId,
        name: 'Ava',
        status: 'live',
        timezone: 'America/Chicago',
        defaultLanguage: 'en-US',
        attemptLimit: 5,
        workingHours: {
          mon: [{ start: '09:00', end: '17:00' }],
          tue: [{ start: '09:00', end: '17:00' }],
          wed: [{ start: '09:00', end: '17:00' }],
          thu: [{ start: '09:00', end: '17:00' }],
          fri: [{ start: '09:00', end: '17:00' }],
        },
        retryDelayMinutes: 60,
        callNewContactsImmediately: true,
      },
    });
    const workflow = await prisma().workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: acct.accountId,
        agentId: agent.id,
        name: 'Renewals',
        status: 'published',
      },
    });
    return { ...acct, workflowId: workflow.id };
  }

  async function enroll(
    ctx: { apiKey: string; workflowId: string },
    body: Record<string, unknown> = {},
    enforceCallNow = false,
  ) {
    const res = await server.request(ctx.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: chicagoPhone(),
      ...body,
      assignmentOptions: { workflowId: ctx.workflowId, ...(enforceCallNow ? { reEnroll: true, enforceCallNow } : {}) },
    });
    expect(res.status, res.text).toBe(201);
    return res.json as { id: string; phone: string };
  }

  const dialing = async (apiKey: string, contactId: string) => {
    const res = await server.request(apiKey, 'GET', `/api/v1/contacts/${contactId}/dialing`);
    expect(res.status, res.text).toBe(200);
    return res.json as {
      callableNow: boolean;
      nextCallableAt: string | null;
      reasons: Array<{ code: string; ruleId: string | null; until: string | null; source: string | null }>;
      jurisdictions: string[];
      timeZones: string[];
      consentUsed: { id: string; kind: string } | null;
    };
  };

  it('a new Account has the legal rules on for telemarketing; a change is recorded with who made it, and bad input changes nothing', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await account();
    const initial = await server.request(ctx.apiKey, 'GET', '/api/v1/calling-policy');
    expect(initial.json).toMatchObject({
      purpose: 'telemarketing',
      requireWrittenConsent: false,
      attemptCap: null,
      disabledJurisdictions: [],
      updatedAt: null,
    });
    expect(initial.json.jurisdictions).toEqual(
      expect.arrayContaining(['US', 'US-FL', 'CA', 'FR', 'DE', 'ES', 'GB', 'MX', 'IL']),
    );
    expect(initial.json.legalAttemptCaps).toEqual(
      expect.arrayContaining([expect.objectContaining({ ruleId: 'us-fl-cap', max: 3, periodHours: 24 })]),
    );

    for (const bad of [
      { attemptCap: { max: -1, periodHours: 24 } },
      { attemptCap: { max: 2, periodHours: 0 } },
      { disabledJurisdictions: ['US-ZZ'] },
      { disabledJurisdictions: ['US-FL', 'US-FL'] },
      { purpose: 'sales' },
      { purpose: 'informational', nonsense: true },
    ]) {
      const res = await server.request(ctx.apiKey, 'PUT', '/api/v1/calling-policy', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json).toMatchObject({ error: 'Bad Request', code: 'bad_request' });
    }
    expect((await server.request(ctx.apiKey, 'GET', '/api/v1/calling-policy')).json).toEqual(initial.json);
    expect((await server.request(ctx.apiKey, 'GET', '/api/v1/calling-policy/changes')).json).toEqual({ data: [] });

    clock.at = new Date(MONDAY_10_CHICAGO.getTime() + 60_000);
    const changed = await server.request(ctx.apiKey, 'PUT', '/api/v1/calling-policy', {
      attemptCap: { max: 2, periodHours: 24 },
      disabledJurisdictions: ['US-FL'],
    });
    expect(changed.status, changed.text).toBe(200);
    const key = await prisma().apiKey.findFirstOrThrow({ where: { accountId: ctx.accountId } });
    expect(changed.json).toMatchObject({
      purpose: 'telemarketing',
      attemptCap: { max: 2, periodHours: 24 },
      disabledJurisdictions: [
        { jurisdiction: 'US-FL', disabledAt: clock.at.toISOString(), disabledBy: `key:${key.id}` },
      ],
      updatedBy: `key:${key.id}`,
    });
    // The same again is no change, and is not recorded.
    await server.request(ctx.apiKey, 'PUT', '/api/v1/calling-policy', { disabledJurisdictions: ['US-FL'] });
    const changes = await server.request(ctx.apiKey, 'GET', '/api/v1/calling-policy/changes');
    expect(changes.json.data).toEqual([
      {
        at: clock.at.toISOString(),
        actor: `key:${key.id}`,
        change: {
          attemptCap: { from: null, to: { max: 2, periodHours: 24 } },
          disabledJurisdictions: { from: [], to: ['US-FL'] },
        },
      },
    ]);
  });

  it('does not call a contact without the consent the law asks for; a consent brings it back at once, and /dialing says why at each step', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await account();
    const contact = await enroll(ctx);
    expect(await dial()).not.toContain(contact.id);
    const before = await dialing(ctx.apiKey, contact.id);
    expect(before.callableNow).toBe(false);
    expect(before.jurisdictions).toEqual(['US', 'US-IL']);
    expect(before.timeZones).toEqual(['America/Chicago']);
    // Without written consent the national registry binds too, and no copy of it is stored.
    expect(before.reasons).toEqual([
      expect.objectContaining({ code: 'consent_required', ruleId: 'us-consent-telemarketing', until: null }),
      expect.objectContaining({ code: 'registry_copy_missing', ruleId: 'us-dnc', until: null }),
    ]);
    expect(before.nextCallableAt).toBeNull();
    // Set aside until someone acts, not called again and again.
    const held = await prisma().enrollment.findFirstOrThrow({ where: { contactId: contact.id, active: true } });
    expect(held.dialingHold).toBe('consent_required');

    // Express consent is not enough for a telemarketing call with an artificial voice.
    const express = await server.request(ctx.apiKey, 'POST', `/api/v1/contacts/${contact.id}/consents`, {
      kind: 'express',
      method: 'recorded_call',
      obtainedAt: new Date(clock.at.getTime() - HOUR).toISOString(),
    });
    expect(express.status, express.text).toBe(201);
    expect(await dial()).not.toContain(contact.id);
    expect((await dialing(ctx.apiKey, contact.id)).reasons.map((r) => r.code)).toEqual([
      'consent_required',
      'registry_copy_missing',
    ]);

    const written = await server.request(
      ctx.apiKey,
      'POST',
      `/api/v1/contacts/${contact.id}/consents`,
      writtenConsent(clock.at),
    );
    expect(written.status, written.text).toBe(201);
    const now = await dialing(ctx.apiKey, contact.id);
    expect(now).toMatchObject({ callableNow: true, consentUsed: { id: written.json.id, kind: 'express_written' } });
    expect(await dial()).toEqual([contact.id]);

    const audit = await server.request(ctx.apiKey, 'GET', '/api/v1/calls/audit.csv');
    expect(audit.status, audit.text).toBe(200);
    const rows = parse(audit.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toEqual([
      expect.objectContaining({
        contactId: contact.id,
        consentId: written.json.id,
        consentKind: 'express_written',
        jurisdictions: 'US US-IL',
        timeZones: 'America/Chicago',
        purpose: 'telemarketing',
      }),
    ]);
    expect(rows[0].ruleIds.split(' ')).toEqual(expect.arrayContaining(['us-hours', 'us-il-adad-hours']));
  });

  it('enforceCallNow skips the working hours, never the law: a contact enrolled at night is called when the law allows', async () => {
    // Sunday 23:00 in Chicago.
    clock.at = new Date('2026-11-30T05:00:00.000Z');
    const ctx = await account();
    const contact = await enroll(ctx, { consent: writtenConsent(clock.at) }, true);
    expect(await dial()).not.toContain(contact.id);
    const night = await dialing(ctx.apiKey, contact.id);
    expect(night.reasons.map((r) => r.code)).toEqual(['outside_legal_hours', 'outside_legal_hours']);
    expect(night.reasons.map((r) => r.ruleId).sort()).toEqual(['us-hours', 'us-il-adad-hours']);
    // Illinois allows autodialed sales calls from 09:00; the agent's hours are skipped (enforceCallNow).
    expect(night.nextCallableAt).toBe('2026-11-30T15:00:00.000Z');
    const stored = await prisma().enrollment.findFirstOrThrow({ where: { contactId: contact.id, active: true } });
    expect(stored.nextAttemptAt?.toISOString()).toBe('2026-11-30T15:00:00.000Z');
    clock.at = new Date('2026-11-30T14:59:00.000Z');
    expect(await dial()).not.toContain(contact.id);
    clock.at = new Date('2026-11-30T15:00:00.000Z');
    expect(await dial()).toEqual([contact.id]);
  });

  it('GET /contacts/{id}/dialing agrees with the dialer, contact by contact', async () => {
    clock.at = MONDAY_10_CHICAGO; // 17:00 in Paris, 16:00 in London, 08:00 in Los Angeles
    const ctx = await account();
    const now = clock.at;
    const contacts = await Promise.all(
      [
        { phone: chicagoPhone(), consent: writtenConsent(now) },
        { phone: chicagoPhone() },
        { phone: '+14155550143', consent: writtenConsent(now) }, // California: autodialer calls from 09:00
        { phone: '+12125550143', consent: writtenConsent(now), location: 'US-CA' }, // both zones
        { phone: '+13055550143', consent: writtenConsent(now) }, // Florida
        { phone: '+33612345678', consent: writtenConsent(now) }, // France: Bloctel copy missing
        { phone: '+447400123456', consent: writtenConsent(now) }, // UK
        { phone: '+4915123456789' }, // Germany, no consent
        { phone: '+19075550143', consent: writtenConsent(now) }, // Alaska
      ].map((body) => enroll(ctx, body)),
    );
    const explained = new Map<string, boolean>();
    for (const c of contacts) explained.set(c.id, (await dialing(ctx.apiKey, c.id)).callableNow);
    const placed = new Set(await dial());
    for (const c of contacts)
      expect({ phone: c.phone, placed: placed.has(c.id) }).toEqual({ phone: c.phone, placed: explained.get(c.id) });
    // Both kinds are present, so the comparison means something.
    expect([...explained.values()]).toContain(true);
    expect([...explained.values()]).toContain(false);
  });

  it("/dialing names what holds the contact's enrollment: a paused workflow, an agent not live, a blocked phone", async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await account();
    const contact = await enroll(ctx, { consent: writtenConsent(clock.at) });
    const codes = async () => (await dialing(ctx.apiKey, contact.id)).reasons.map((r) => r.code);
    expect(await codes()).toEqual([]);
    const workflow = await prisma().workflow.update({ where: { id: ctx.workflowId }, data: { paused: true } });
    expect(await codes()).toEqual(['workflow_paused']);
    await prisma().workflow.update({ where: { id: ctx.workflowId }, data: { paused: false } });
    await prisma().agent.update({ where: { id: workflow.agentId as string }, data: { status: 'paused' } });
    expect(await codes()).toEqual(['agent_not_live']);
    await prisma().agent.update({ where: { id: workflow.agentId as string }, data: { status: 'live' } });
    await prisma().blockedPhone.create({
      data: { accountId: ctx.accountId, phone: contact.phone, createdAt: server.now() },
    });
    expect(await codes()).toContain('phone_blocked');
    // The dialer agrees: nothing is placed.
    expect(await dial()).not.toContain(contact.id);
  });

  it('a do_not_call result revokes the consent; consents of another Account and unknown contacts are not found', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await account();
    const contact = await enroll(ctx, { consent: writtenConsent(clock.at) });
    telephony.setScript(contact.phone, { result: 'do_not_call', durationSeconds: 30 });
    expect(await dial()).toEqual([contact.id]);
    const consents = await server.request(ctx.apiKey, 'GET', `/api/v1/contacts/${contact.id}/consents`);
    expect(consents.json.data).toEqual([
      expect.objectContaining({ active: false, revokedBy: 'do_not_call_result', revokedAt: clock.at.toISOString() }),
    ]);

    const other = await account();
    const consent = writtenConsent(clock.at);
    expect(
      (await server.request(other.apiKey, 'POST', `/api/v1/contacts/${contact.id}/consents`, consent)).status,
    ).toBe(404);
    expect(
      (await server.request(ctx.apiKey, 'POST', `/api/v1/contacts/${randomUUID()}/consents`, consent)).status,
    ).toBe(404);
    expect(
      (
        await server.request(ctx.apiKey, 'POST', `/api/v1/contacts/${contact.id}/consents`, {
          ...consent,
          workflowId: randomUUID(),
        })
      ).status,
    ).toBe(400);
    // Nothing was stored by the refused writes.
    expect(await prisma().consent.count({ where: { contactId: contact.id } })).toBe(1);
  });

  it('revokes one scope or all, and a revocation holds for the next claim', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await account();
    const contact = await enroll(ctx);
    const add = (workflowId?: string) =>
      server.request(
        ctx.apiKey,
        'POST',
        `/api/v1/contacts/${contact.id}/consents`,
        writtenConsent(clock.at, workflowId),
      );
    expect((await add(ctx.workflowId)).status).toBe(201);
    expect((await add()).status).toBe(201);
    const accountWide = await server.request(ctx.apiKey, 'POST', `/api/v1/contacts/${contact.id}/consents/revoke`, {
      workflowId: null,
    });
    expect(accountWide.json.data).toEqual([
      expect.objectContaining({ workflowId: null, active: false, revokedBy: 'api' }),
    ]);
    // The workflow's own consent still covers its calls.
    expect((await dialing(ctx.apiKey, contact.id)).callableNow).toBe(true);
    const all = await server.request(ctx.apiKey, 'POST', `/api/v1/contacts/${contact.id}/consents/revoke`, {});
    expect(all.json.data).toEqual([expect.objectContaining({ workflowId: ctx.workflowId, active: false })]);
    expect(await dial()).not.toContain(contact.id);
    expect((await dialing(ctx.apiKey, contact.id)).reasons.map((r) => r.code)).toEqual([
      'consent_required',
      'registry_copy_missing',
    ]);
  });

  it('imports and upserts carry consent; a bad consent is a 400 that stores neither the contact nor the consent', async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await account();
    const future = { ...writtenConsent(clock.at), obtainedAt: new Date(clock.at.getTime() + HOUR).toISOString() };
    const refusedPhone = chicagoPhone();
    const refused = await server.request(ctx.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: refusedPhone,
      consent: future,
    });
    expect(refused.status).toBe(400);
    expect(refused.json.issues).toEqual([{ path: 'consent.obtainedAt', message: 'must not be in the future' }]);
    expect(await prisma().contact.count({ where: { accountId: ctx.accountId } })).toBe(0);

    const items = [
      { sourceKind: 'csv', externalId: 'with-consent', phone: chicagoPhone(), consent: writtenConsent(clock.at) },
      { sourceKind: 'csv', externalId: 'without', phone: chicagoPhone() },
    ];
    const badImport = await server.request(ctx.apiKey, 'POST', '/api/v1/contacts/bulk', {
      contacts: [
        ...items,
        { sourceKind: 'csv', externalId: 'bad', phone: chicagoPhone(), consent: { ...future, kind: 'implied' } },
      ],
    });
    expect(badImport.status).toBe(400);
    expect(badImport.json.issues.map((i: { path: string }) => i.path)).toEqual(['contacts[2].consent.kind']);
    expect(await prisma().contact.count({ where: { accountId: ctx.accountId } })).toBe(0);

    const imported = await server.request(ctx.apiKey, 'POST', '/api/v1/contacts/bulk', {
      contacts: items,
      assignmentOptions: { workflowId: ctx.workflowId },
    });
    expect(imported.status, imported.text).toBe(202);
    await server.eventually(async () => {
      const job = await server.request(ctx.apiKey, 'GET', `/api/v1/imports/${imported.json.importId}`);
      return job.json.status === 'done';
    });
    const stored = await prisma().contact.findMany({
      where: { accountId: ctx.accountId },
      orderBy: { externalId: 'asc' },
    });
    const consents = await prisma().consent.findMany({ where: { accountId: ctx.accountId } });
    expect(consents.map((c) => [c.contactId, c.kind, c.method])).toEqual([
      [stored.find((c) => c.externalId === 'with-consent')?.id, 'express_written', 'web_form'],
    ]);
    expect((await dial()).sort()).toEqual([stored.find((c) => c.externalId === 'with-consent')?.id]);
  });

  it("the Account's own attempt cap holds the retry past the agent's delay", async () => {
    clock.at = MONDAY_10_CHICAGO;
    const ctx = await account();
    await server.request(ctx.apiKey, 'PUT', '/api/v1/calling-policy', { attemptCap: { max: 1, periodHours: 24 } });
    const contact = await enroll(ctx, { consent: writtenConsent(clock.at) });
    telephony.setScript(contact.phone, { result: 'no_answer', durationSeconds: 0 });
    expect(await dial()).toEqual([contact.id]);
    // Once the retry is due, the cap holds it: one call in any 24 hours.
    const retry = await prisma().enrollment.findFirstOrThrow({ where: { contactId: contact.id, active: true } });
    clock.at = retry.nextAttemptAt as Date;
    expect(await dial()).not.toContain(contact.id);
    const capped = await dialing(ctx.apiKey, contact.id);
    expect(capped.reasons).toEqual([
      expect.objectContaining({ code: 'attempt_cap_reached', ruleId: null, until: '2026-12-01T16:00:00.000Z' }),
    ]);
    expect(capped.nextCallableAt).toBe('2026-12-01T16:00:00.000Z');
  });
});
