// The calling-rules tools, contact_dialing_get and contact_consents_list, through the SDK's Client
// against a real listening server, on each database: each result is the REST body of the same
// contact (by id and by external ID), the decision follows a consent recorded and the clock, and
// every failure is the REST error body (404, 409, the 400s naming the tool's arguments); a key
// sees only its own Account. The clock is fixed: Monday 23 November 2026, 12:00 in Los Angeles,
// inside every hours rule that binds a California number, so the reasons are the ones the test
// makes.
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone, upsertOk } from '../support/api-helpers.js';
import { callingSetup } from '../support/calling-setup.js';
import { testDatabaseKinds } from '../support/databases.js';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { callError, callOk, connect, type Connected, withoutRequestId } from './mcp-helpers.js';

const NOON_LOS_ANGELES = new Date('2026-11-23T20:00:00.000Z');
const TOOLS = ['contact_dialing_get', 'contact_consents_list'] as const;

describe.each(testDatabaseKinds())('the calling-rules tools on %s', (kind) => {
  let server: TestServer;
  let mine: TestAccount;
  let theirs: TestAccount;
  let mcp: Connected;
  let other: Connected;
  let client: Client;
  const clock = { at: NOON_LOS_ANGELES, now: () => clock.at };
  // Rosa: a California number from a CRM, not enrolled. Enzo: enrolled in a workflow.
  let rosa: { id: string };
  let enzo: { id: string };
  let workflowId: string;
  let theirContact: { id: string };

  const enc = encodeURIComponent;
  const byId = (id: string, suffix: string) => `/api/v1/contacts/${id}${suffix}`;
  const byExternalId = (sourceKind: string, externalId: string, suffix: string) =>
    `/api/v1/contacts/source/${sourceKind}/external-id/${enc(externalId)}${suffix}`;
  const rest = (path: string, method = 'GET', body?: unknown) => server.request(mine.apiKey, method, path, body);
  const restOk = async (path: string) => {
    const res = await rest(path);
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.json;
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    [mine, theirs] = await Promise.all([server.createAccount(), server.createAccount()]);
    ({ workflowId } = await callingSetup(server, mine.accountId, { workflowName: 'Renewals' }));
    rosa = await upsertOk(server, mine.apiKey, {
      firstName: 'Rosa',
      phone: uniquePhone(),
      sourceKind: 'hubspot',
      externalId: 'crm-rosa',
    });
    enzo = await upsertOk(server, mine.apiKey, {
      firstName: 'Enzo',
      phone: uniquePhone(),
      sourceKind: 'api',
      externalId: 'api-enzo',
      assignmentOptions: { workflowId },
    });
    // Two contacts sharing an external ID (the Account deduplicates by phone).
    for (let i = 0; i < 2; i++)
      await upsertOk(server, mine.apiKey, { phone: uniquePhone(), sourceKind: 'csv', externalId: 'shared-1' });
    theirContact = await upsertOk(server, theirs.apiKey, { phone: uniquePhone(), firstName: 'Theirs' });
    [mcp, other] = await Promise.all([connect(server, mine.apiKey), connect(server, theirs.apiKey)]);
    client = mcp.client;
  });
  afterAll(async () => {
    await mcp?.close();
    await other?.close();
    await server?.stop();
  });

  it('are listed read-only, each taking a contact by id or by source and external ID', async () => {
    const { tools } = await client.listTools();
    for (const name of TOOLS) {
      const tool = tools.find((t) => t.name === name);
      expect(tool, name).toBeDefined();
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      expect(Object.keys(tool?.inputSchema.properties ?? {}).sort()).toEqual(['contactId', 'externalId', 'sourceKind']);
      expect(tool?.inputSchema.required ?? []).toEqual([]);
      expect(tool?.outputSchema?.type).toBe('object');
    }
  });

  it('contact_dialing_get answers the REST decision: not callable without consent, each reason with its law', async () => {
    clock.at = NOON_LOS_ANGELES;
    const decision = await callOk(client, 'contact_dialing_get', { contactId: rosa.id });
    expect(decision).toEqual(await restOk(byId(rosa.id, '/dialing')));
    expect(await callOk(client, 'contact_dialing_get', { sourceKind: 'hubspot', externalId: 'crm-rosa' })).toEqual(
      await restOk(byExternalId('hubspot', 'crm-rosa', '/dialing')),
    );
    expect(decision).toMatchObject({
      contactId: rosa.id,
      callableNow: false,
      nextCallableAt: null,
      purpose: 'telemarketing',
      timeZones: ['America/Los_Angeles'],
      jurisdictions: expect.arrayContaining(['US', 'US-CA']),
      consentUsed: null,
      enrollment: null,
    });
    expect(decision.reasons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'consent_required',
          jurisdiction: 'US',
          ruleId: 'us-consent-telemarketing',
          source: expect.stringContaining('47 U.S.C. § 227(b)(1)'),
          until: null,
        }),
        expect.objectContaining({ code: 'registry_copy_missing', jurisdiction: 'US', ruleId: 'us-dnc', until: null }),
      ]),
    );
    // Enrolled: the decision is for its enrollment.
    const enrolled = await callOk(client, 'contact_dialing_get', { sourceKind: 'api', externalId: 'api-enzo' });
    expect(enrolled).toEqual(await restOk(byId(enzo.id, '/dialing')));
    expect(enrolled.enrollment).toMatchObject({ workflowId, attempts: 0, immediate: true });
  });

  it('contact_consents_list answers the REST list; a consent recorded makes the contact callable, until the law’s hours end', async () => {
    clock.at = NOON_LOS_ANGELES;
    expect(await callOk(client, 'contact_consents_list', { contactId: rosa.id })).toEqual({ data: [] });
    const obtainedAt = new Date(server.now().getTime() - 86_400_000).toISOString();
    const added = await rest(byId(rosa.id, '/consents'), 'POST', {
      kind: 'express_written',
      method: 'web_form',
      evidence: 'Signed the web form at example.com/agree',
      obtainedAt,
    });
    expect(added.status, added.text).toBe(201);

    const listed = await callOk(client, 'contact_consents_list', { contactId: rosa.id });
    expect(listed).toEqual(await restOk(byId(rosa.id, '/consents')));
    expect(await callOk(client, 'contact_consents_list', { sourceKind: 'hubspot', externalId: 'crm-rosa' })).toEqual(
      listed,
    );
    expect(listed.data).toEqual([
      expect.objectContaining({
        id: added.json.id,
        contactId: rosa.id,
        kind: 'express_written',
        workflowId: null,
        method: 'web_form',
        obtainedAt,
        active: true,
        revokedAt: null,
      }),
    ]);

    const callable = await callOk(client, 'contact_dialing_get', { contactId: rosa.id });
    expect(callable).toMatchObject({
      callableNow: true,
      nextCallableAt: NOON_LOS_ANGELES.toISOString(),
      reasons: [],
      consentUsed: { id: added.json.id, kind: 'express_written' },
    });

    // 23:00 in Los Angeles: outside the US's 08:00–21:00 and California's 09:00–21:00; next at 09:00.
    clock.at = new Date('2026-11-24T07:00:00.000Z');
    const night = await callOk(client, 'contact_dialing_get', { contactId: rosa.id });
    expect(night).toEqual(await restOk(byId(rosa.id, '/dialing')));
    expect(night.callableNow).toBe(false);
    expect(night.nextCallableAt).toBe('2026-11-24T17:00:00.000Z');
    expect(night.reasons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'outside_legal_hours', ruleId: 'us-hours', until: '2026-11-24T16:00:00.000Z' }),
        expect.objectContaining({
          code: 'outside_legal_hours',
          ruleId: 'us-ca-adad-hours',
          jurisdiction: 'US-CA',
          until: '2026-11-24T17:00:00.000Z',
        }),
      ]),
    );
    clock.at = NOON_LOS_ANGELES;

    // Revoked (by REST): listed as revoked, and the consent reason is back.
    await rest(byId(rosa.id, '/consents/revoke'), 'POST', {});
    const revoked = await callOk(client, 'contact_consents_list', { contactId: rosa.id });
    expect(revoked.data[0]).toMatchObject({
      active: false,
      revokedBy: 'api',
      revokedAt: NOON_LOS_ANGELES.toISOString(),
    });
    const again = await callOk(client, 'contact_dialing_get', { contactId: rosa.id });
    expect(again.reasons.map((r: { code: string }) => r.code)).toContain('consent_required');
  });

  it('fails as REST does: 404, another Account’s contact, 409 with the matches, and the 400s naming the arguments', async () => {
    for (const tool of TOOLS) {
      const suffix = tool === 'contact_dialing_get' ? '/dialing' : '/consents';
      const unknownId = randomUUID();
      for (const [args, path] of [
        [{ contactId: unknownId }, byId(unknownId, suffix)],
        [{ sourceKind: 'api', externalId: 'nobody' }, byExternalId('api', 'nobody', suffix)],
      ] as const) {
        const body = await callError(client, tool, args);
        const viaRest = await rest(path);
        expect(viaRest.status).toBe(404);
        expect(withoutRequestId(body), `${tool} ${JSON.stringify(args)}`).toEqual(withoutRequestId(viaRest.json));
      }
      // A key sees only its own Account: the other Account's contact is not found, and theirs is theirs.
      expect((await callError(client, tool, { contactId: theirContact.id })).code).toBe('not_found');
      expect(await callOk(other.client, tool, { contactId: theirContact.id })).toEqual(
        (await server.request(theirs.apiKey, 'GET', byId(theirContact.id, suffix))).json,
      );

      const shared = await callError(client, tool, { sourceKind: 'csv', externalId: 'shared-1' });
      const sharedRest = await rest(byExternalId('csv', 'shared-1', suffix));
      expect(sharedRest.status).toBe(409);
      expect(shared).toMatchObject({ code: 'conflict' });
      expect(withoutRequestId(shared)).toEqual(withoutRequestId(sharedRest.json));
      expect(shared.contacts).toHaveLength(2);

      expect(await callError(client, tool, {})).toMatchObject({
        code: 'bad_request',
        message: 'contactId: is required (or sourceKind and externalId)',
      });
      expect(await callError(client, tool, { contactId: rosa.id, sourceKind: 'hubspot' })).toMatchObject({
        code: 'bad_request',
        message: 'sourceKind: give contactId, or sourceKind and externalId, not both',
      });
      expect(await callError(client, tool, { sourceKind: 'hubspot' })).toMatchObject({
        code: 'bad_request',
        message: 'externalId: is required',
      });
      const malformed = await callError(client, tool, { contactId: 'not-a-uuid' });
      expect(malformed).toMatchObject({ code: 'bad_request', message: 'contactId must be a UUID' });
      const badSource = await callError(client, tool, { sourceKind: 'fax', externalId: 'x' });
      const badSourceRest = await rest(byExternalId('fax', 'x', suffix));
      expect(badSourceRest.status).toBe(400);
      expect(withoutRequestId(badSource)).toEqual(withoutRequestId(badSourceRest.json));
    }
  });
});
