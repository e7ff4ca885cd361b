// Property-based fuzzing of the REST API (fast-check): generated hostile values (NUL, lone
// surrogates, huge strings, deep JSON, wrong types) in every body field, path segment and query
// parameter of every operation. No answer may be a 5xx; an error is the API's error body;
// a refused write stores nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { uniquePhone } from '../support/api-helpers.js';
import { fuzzOptions, hostileString, hostileValue, pathSegment, toJson } from '../support/hostile-values.js';

const WRITE_FIELDS = [
  'firstName',
  'lastName',
  'fullName',
  'phone',
  'location',
  'timezone',
  'language',
  'status',
  'sourceKind',
  'externalId',
  'customFields',
  'priority',
];
const UPSERT_FIELDS = [
  ...WRITE_FIELDS,
  'createdAt',
  'assignmentOptions',
  'assignmentOptions.workflowId',
  'assignmentOptions.reEnroll',
  'customFields.plan',
  'unknownField',
];
const FILTER_FIELDS = [
  'firstName',
  'lastName',
  'phone',
  'sourceKind',
  'externalId',
  'customFields',
  'customFields.0.key',
  'customFields.0.value',
];
const LIST_PARAMETERS = [
  'searchTerm',
  'status',
  'sourceKind',
  'assignedWorkflowId',
  'addedSince',
  'addedBefore',
  'limit',
  'nextToken',
];

/** A copy of `base` with `value` at the dotted path (numeric segments index arrays). */
function withValueAt(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  const parts = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) {
    if (typeof target[part] !== 'object' || target[part] === null)
      target[part] = /^\d+$/.test(parts[parts.indexOf(part) + 1] ?? '') ? [] : {};
    target = target[part] as Record<string, unknown>;
  }
  target[parts.at(-1)!] = value;
  return copy;
}

/** A query string carrying `value` as `name`: text as is, a list as repeated keys, an object as name[key]. */
function queryOf(name: string, value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => `${name}=${pathSegment(String(v))}`).join('&') || `${name}=`;
  if (value !== null && typeof value === 'object')
    return (
      Object.entries(value)
        .map(([k, v]) => `${name}[${pathSegment(k)}]=${pathSegment(String(v))}`)
        .join('&') || `${name}=`
    );
  return `${name}=${pathSegment(String(value))}`;
}

/** Hostile text short enough for a request line (Node refuses one over 16 KB before the service sees it). */
const urlText = hostileString.filter((s) => s.length < 2_000);

describe.each(testDatabaseKinds())('REST fuzz on %s', (kind) => {
  let server: TestServer;
  let apiKey: string;
  let accountId: string;
  let workflowId: string;
  const externalId = 'fuzz-contact';
  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ apiKey, accountId } = await server.createAccount());
    workflowId = await server.createWorkflow(accountId, { status: 'published' });
    const created = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      externalId,
      firstName: 'Fuzz',
    });
    expect(created.status).toBe(201);
  });
  afterAll(() => server?.stop());

  /** A JSON body written as text (deep values at full depth; see DeepJson). */
  const send = (method: string, path: string, body: unknown) =>
    server.request(apiKey, method, path, toJson(body), { 'content-type': 'application/json' });
  /** What a refused request must leave as it was, counted in one statement (with the pending batches). */
  const counts = async () => {
    const { rows } = await server.service.services.db.sql.query<{
      contacts: number;
      batches: number;
      pending: number;
      patched: string | null;
    }>(
      `SELECT (SELECT count(*)::int FROM "Contact" WHERE "accountId" = $1::uuid) AS contacts,
              (SELECT count(*)::int FROM "ImportBatch" WHERE "accountId" = $1::uuid) AS batches,
              (SELECT count(*)::int FROM "ImportBatch" WHERE "accountId" = $1::uuid AND "status" = 'pending') AS pending,
              (SELECT "updatedAt"::text FROM "Contact" WHERE "accountId" = $1::uuid AND "externalId" = $2 LIMIT 1) AS patched`,
      [accountId, externalId],
    );
    return rows[0];
  };
  const stored = async () => {
    const { pending: _, ...rest } = await counts();
    return rest;
  };

  /** Waits for the batches earlier accepted requests queued, which write after their 202. */
  const settled = () => server.eventually(async () => (await counts()).pending === 0);

  /** The answer is no 5xx, an error is the error body, and a refused request stored nothing. */
  async function expectHandled(send: () => ReturnType<TestServer['request']>): Promise<void> {
    await settled();
    const before = await stored();
    const res = await send();
    expect(res.status, res.text.slice(0, 500)).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.json, res.text.slice(0, 500)).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
        requestId: res.headers.get('x-request-id'),
      });
      expect(await stored()).toEqual(before);
    }
  }

  it.each(UPSERT_FIELDS)('PUT /contacts/upsert: %s', async (field) => {
    await fc.assert(
      fc.asyncProperty(hostileValue, async (value) => {
        await expectHandled(() =>
          send(
            'PUT',
            '/api/v1/contacts/upsert',
            withValueAt({ phone: uniquePhone(), assignmentOptions: { workflowId } }, field, value),
          ),
        );
      }),
      fuzzOptions(15),
    );
  });

  it.each([...UPSERT_FIELDS.filter((f) => !f.startsWith('assignmentOptions')), 'contacts', 'contacts.1'])(
    'POST /contacts/bulk: %s',
    async (field) => {
      await fc.assert(
        fc.asyncProperty(hostileValue, async (value) => {
          const contacts = [0, 1, 2].map(() => ({ sourceKind: 'csv', externalId: null, phone: uniquePhone() }));
          const body = field.startsWith('contacts')
            ? withValueAt({ contacts }, field, value)
            : { contacts: contacts.map((c, i) => (i === 1 ? withValueAt(c, field, value) : c)) };
          await expectHandled(() => send('POST', '/api/v1/contacts/bulk', body));
        }),
        fuzzOptions(15),
      );
    },
  );

  it.each([...FILTER_FIELDS.map((f) => `filter.${f}`), ...WRITE_FIELDS.map((f) => `data.${f}`), 'filter', 'data'])(
    'POST /contacts/bulk-update: %s',
    async (field) => {
      await fc.assert(
        fc.asyncProperty(hostileValue, async (value) => {
          // A filter that matches no contact, so that an accepted update changes nothing here.
          const body = withValueAt(
            { filter: { firstName: 'nobody-has-this-name' }, data: { priority: 1 } },
            field,
            value,
          );
          await settled();
          const before = await stored();
          const res = await send('POST', '/api/v1/contacts/bulk-update', body);
          expect(res.status, res.text.slice(0, 500)).toBeLessThan(500);
          if (res.status >= 400) expect(await stored()).toEqual(before);
        }),
        fuzzOptions(15),
      );
    },
  );

  it.each([...WRITE_FIELDS, 'customFields.plan', 'unknownField'])(
    'PATCH /contacts/source/api/external-id/{id}: %s',
    async (field) => {
      await fc.assert(
        fc.asyncProperty(hostileValue, async (value) => {
          await expectHandled(() =>
            send('PATCH', `/api/v1/contacts/source/api/external-id/${externalId}`, withValueAt({}, field, value)),
          );
        }),
        fuzzOptions(15),
      );
    },
  );

  it('path segments: sourceKind, externalId, contact id and call id', async () => {
    await fc.assert(
      fc.asyncProperty(urlText, fc.constantFrom('sourceKind', 'externalId', 'id', 'callId'), async (text, segment) => {
        const value = pathSegment(text) || '%20';
        const paths =
          segment === 'sourceKind'
            ? [
                `/api/v1/contacts/source/${value}/external-id/${externalId}`,
                `/api/v1/contacts/source/${value}/external-id/${externalId}/calls`,
              ]
            : segment === 'externalId'
              ? [
                  `/api/v1/contacts/source/api/external-id/${value}`,
                  `/api/v1/contacts/source/api/external-id/${value}/calls`,
                ]
              : segment === 'id'
                ? [`/api/v1/contacts/${value}`]
                : [`/api/v1/calls/${value}/transcript`];
        for (const path of paths) await expectHandled(() => server.request(apiKey, 'GET', path));
        if (segment === 'externalId' || segment === 'sourceKind') {
          await expectHandled(() => server.request(apiKey, 'PATCH', paths[0], { lastName: 'Changed' }));
        }
      }),
      fuzzOptions(40),
    );
  });

  it.each(LIST_PARAMETERS)('GET /contacts and /contacts/csv: %s', async (name) => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(urlText, fc.array(urlText, { maxLength: 3 }), fc.dictionary(urlText, urlText, { maxKeys: 2 })),
        async (value) => {
          await expectHandled(() => server.request(apiKey, 'GET', `/api/v1/contacts?${queryOf(name, value)}`));
          await expectHandled(() => server.request(apiKey, 'GET', `/api/v1/contacts/csv?${queryOf(name, value)}`));
        },
      ),
      fuzzOptions(15),
    );
  });

  it.each(['limit', 'nextToken'])("GET /workflows and a contact's calls: %s", async (name) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(urlText, fc.array(urlText, { maxLength: 3 })), async (value) => {
        await expectHandled(() => server.request(apiKey, 'GET', `/api/v1/workflows?${queryOf(name, value)}`));
        await expectHandled(() =>
          server.request(
            apiKey,
            'GET',
            `/api/v1/contacts/source/api/external-id/${externalId}/calls?${queryOf(name, value)}`,
          ),
        );
      }),
      fuzzOptions(15),
    );
  });

  it('whole bodies of any JSON shape on every write', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostileValue, fc.jsonValue({ maxDepth: 3 })),
        fc.constantFrom(
          'PUT /contacts/upsert',
          'POST /contacts/bulk',
          'POST /contacts/bulk-update',
          `PATCH /contacts/source/api/external-id/${externalId}`,
        ),
        async (body, operation) => {
          const [method, path] = operation.split(' ');
          await expectHandled(() => send(method, `/api/v1${path}`, body));
        },
      ),
      fuzzOptions(40),
    );
  });
});
