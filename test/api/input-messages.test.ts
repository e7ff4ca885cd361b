// What a 400 says, on REST, GraphQL and through the tool server (the official MCP client): a
// page size that is not an integer from 1 to 100 says so; a key that was not sent is "required" (and
// says when null would do, or which values it takes); a refused workflow in assignmentOptions
// names the field in `issues`; a tool's required argument not sent is "required", not refused
// for a value it never got.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { expectError, uniquePhone, useServerWithAccount } from '../support/api-helpers.js';
import { testDatabaseKinds } from '../support/databases.js';
import { callError, callOk, connect, type Connected } from '../mcp/mcp-helpers.js';

const LIMIT_RULE = 'must be an integer from 1 to 100';

describe.each(testDatabaseKinds())('the words of a 400 on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);
  let mcp: Connected;
  beforeAll(async () => {
    mcp = await connect(server, account.apiKey);
  });
  afterAll(() => mcp?.close());

  const send = (method: string, path: string, body?: unknown) => server.request(account.apiKey, method, path, body);

  /** A 400 bad_request whose issues are exactly these, and whose message names each by its path. */
  function expectIssues(res: Awaited<ReturnType<typeof send>>, issues: Array<{ path: string; message: string }>) {
    expectError(res, 400, 'bad_request', ['issues']);
    expect(res.json.issues).toEqual(issues);
    expect(res.json.message).toBe(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
  }

  it('a page size that is not an integer from 1 to 100 says so, on every list and every tool that pages', async () => {
    const endpoint = await send('POST', '/api/v1/webhook-endpoints', {
      url: 'https://93.184.216.34/hook',
      events: ['call.ended'],
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const lists = [
      '/api/v1/contacts',
      '/api/v1/contacts/csv',
      '/api/v1/workflows',
      '/api/v1/imports',
      '/api/v1/webhook-endpoints',
      `/api/v1/webhook-endpoints/${endpoint.json.id}/deliveries`,
      '/api/v1/contacts/source/api/external-id/nobody/calls',
      // The page is checked before the workflow is looked up.
      `/api/v1/workflows/${randomUUID()}/enrollments`,
    ];
    for (const path of lists)
      for (const limit of ['abc', '0', '101', '1.5', '-1', ''])
        expectIssues(await send('GET', `${path}?limit=${limit}`), [{ path: 'limit', message: LIMIT_RULE }]);

    const pagingTools = (await mcp.client.listTools()).tools.filter((tool) => tool.inputSchema.properties?.limit);
    expect(pagingTools.map((tool) => tool.name).sort()).toEqual([
      'contact_calls_list',
      'contacts_search',
      'imports_list',
      'webhook_deliveries_list',
      'webhook_endpoints_list',
      'workflow_enrollments_list',
      'workflows_list',
    ]);
    const required = {
      sourceKind: 'api',
      externalId: 'nobody',
      endpointId: endpoint.json.id,
      workflowId: randomUUID(),
    };
    for (const tool of pagingTools)
      for (const limit of ['abc', 0, 101, 1.5]) {
        const args = { ...pick(required, tool.inputSchema.required ?? []), limit };
        const body = await callError(mcp.client, tool.name, args);
        expect(body, `${tool.name} ${JSON.stringify(args)}`).toMatchObject({
          code: 'bad_request',
          message: `limit: ${LIMIT_RULE}`,
          issues: [{ path: 'limit', message: LIMIT_RULE }],
        });
      }
  });

  it('GraphQL says the same of a page size out of range, on every paged query', async () => {
    const endpoint = await send('POST', '/api/v1/webhook-endpoints', {
      url: 'https://93.184.216.34/hook',
      events: ['call.ended'],
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const paged: Array<[string, string]> = [
      ['contacts', 'contacts(limit: $limit) { nextToken }'],
      ['contactCalls', 'contactCalls(sourceKind: "api", externalId: "nobody", limit: $limit) { nextToken }'],
      ['imports', 'imports(limit: $limit) { nextToken }'],
      ['workflows', 'workflows(limit: $limit) { nextToken }'],
      ['webhookEndpoints', 'webhookEndpoints(limit: $limit) { nextToken }'],
      ['webhookDeliveries', `webhookDeliveries(endpointId: "${endpoint.json.id}", limit: $limit) { nextToken }`],
    ];
    for (const [name, field] of paged)
      for (const limit of [0, 101, -1]) {
        const res = await send('POST', '/graphql', { query: `query ($limit: Int) { ${field} }`, variables: { limit } });
        expect(res.status, res.text).toBe(200);
        expect(res.json.data, `${name} ${limit}`).toBeNull();
        expect(res.json.errors, `${name} ${limit}`).toHaveLength(1);
        expect(res.json.errors[0], `${name} ${limit}`).toMatchObject({
          message: `limit: ${LIMIT_RULE}`,
          path: [name],
          extensions: { code: 'bad_request', issues: [{ path: 'limit', message: LIMIT_RULE }] },
        });
      }
  });

  it('a bulk item without externalId: required, and it may be null (null is accepted); without sourceKind: required, with its values', async () => {
    const res = await send('POST', '/api/v1/contacts/bulk', {
      contacts: [
        { sourceKind: 'api', phone: uniquePhone() },
        { externalId: null, phone: uniquePhone() },
      ],
    });
    expectIssues(res, [
      { path: 'contacts[0].externalId', message: 'is required (it may be null)' },
      {
        path: 'contacts[1].sourceKind',
        message: 'is required (one of hubspot, salesforce, api, csv, manual, monday, oneai)',
      },
    ]);
    const accepted = await send('POST', '/api/v1/contacts/bulk', {
      contacts: [{ sourceKind: 'api', externalId: null, phone: uniquePhone() }],
    });
    expect(accepted.status, accepted.text).toBe(202);
  });

  it('a body key that was not sent is required, at any depth', async () => {
    expectIssues(await send('POST', '/api/v1/contacts/bulk-update', { filter: { firstName: 'Ada' } }), [
      { path: 'data', message: 'is required' },
    ]);
    expectIssues(
      await send('POST', '/api/v1/contacts/bulk-update', {
        filter: { customFields: [{ value: 'pro' }] },
        data: { priority: 1 },
      }),
      [{ path: 'filter.customFields[0].key', message: 'is required' }],
    );
    expectIssues(await send('POST', '/api/v1/webhook-endpoints', { events: ['call.ended'] }), [
      { path: 'url', message: 'is required' },
    ]);
  });

  it('a workflow assignmentOptions cannot enroll in is a 400 whose issues name assignmentOptions.workflowId', async () => {
    const unknown = randomUUID();
    const draft = await server.createWorkflow(account.accountId, { status: 'draft', name: 'Drafty' });
    const paused = await server.createWorkflow(account.accountId, { paused: true, name: 'Resting' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ workflowId: unknown }, `no workflow ${unknown} in this Account`],
      [{ workflowId: draft }, 'workflow "Drafty" is draft, not published'],
      [{ workflowId: paused }, 'workflow "Resting" is paused'],
      [{ reEnroll: true, enforceCallNow: false }, 'is required when reEnroll or enforceCallNow is sent'],
    ];
    for (const [assignmentOptions, message] of cases) {
      const issues = [{ path: 'assignmentOptions.workflowId', message }];
      expectIssues(await send('PUT', '/api/v1/contacts/upsert', { phone: uniquePhone(), assignmentOptions }), issues);
      expectIssues(
        await send('POST', '/api/v1/contacts/bulk', {
          contacts: [{ sourceKind: 'api', externalId: null, phone: uniquePhone() }],
          assignmentOptions,
        }),
        issues,
      );
    }
    // Nothing was written.
    expect((await send('GET', '/api/v1/contacts?limit=100')).json.data).toHaveLength(1);
  });

  it("every tool's required arguments, not sent (or null): a 400 saying each is required", async () => {
    const tools: Tool[] = (await mcp.client.listTools()).tools;
    const withRequired = tools.filter((tool) => (tool.inputSchema.required ?? []).length > 0);
    expect(withRequired.map((tool) => tool.name).sort()).toEqual([
      'bulk_update_get',
      'call_transcript_get',
      'contact_calls_list',
      'contact_get',
      'contact_get_by_external_id',
      'enrollment_job_get',
      'import_get',
      'webhook_deliveries_list',
      'workflow_enrollments_list',
      'workflow_results_get',
    ]);
    for (const tool of withRequired) {
      const required = tool.inputSchema.required as string[];
      const issues = required.map((path) => ({ path, message: 'is required' }));
      const message = issues.map((issue) => `${issue.path}: is required`).join('; ');
      for (const args of [{}, Object.fromEntries(required.map((name) => [name, null]))]) {
        const body = await callError(mcp.client, tool.name, args);
        expect(body, `${tool.name} ${JSON.stringify(args)}`).toMatchObject({ code: 'bad_request', message, issues });
      }
    }
    expect(await callError(mcp.client, 'call_transcript_get', {})).toMatchObject({
      message: 'callId: is required',
      issues: [{ path: 'callId', message: 'is required' }],
    });
    // A value that is sent is still checked for what it is.
    expect(await callError(mcp.client, 'call_transcript_get', { callId: 'nope' })).toMatchObject({
      message: 'callId must be a UUID',
    });
    expect((await callOk(mcp.client, 'workflows_list', { limit: 1 })).data).toHaveLength(1);
  });
});

function pick(values: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, values[name]]));
}
