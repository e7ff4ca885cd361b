// The one failure table (FAILURES in src/domain/errors.ts) against every surface: for each code,
// the code is provoked through REST, GraphQL, the tool server and the board app's action runs,
// and the answer must be the form the table states: REST's status and error body, GraphQL's
// extensions.code, the tool server's form (tool error result, HTTP answer or JSON-RPC error),
// the board app's form (severity 4000 or 6000, a retry, or a refusal with the error body). Where
// a surface cannot raise a code (a tool server that only reads never refuses a phone), the
// surface's own mapping is checked with a real DomainError. Then each reason's board form.
import { STATUS_CODES } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boardFormOf,
  DomainError,
  FAILURE_REASONS,
  FAILURES,
  MCP_SERVER_ERROR,
  type BoardForm,
  type ErrorCode,
  type FailureReason,
  type McpForm,
} from '../../src/domain/errors.js';
import { errorBody, failureOf } from '../../src/http/error-body.js';
import { answerClientError } from '../../src/http/edge/client-errors.js';
import { toolError } from '../../src/mcp/mcp-server.js';
import { actionFailureOf } from '../../integration/monday/action-failure.js';
import { testDatabaseKinds } from '../support/databases.js';
import { everySurface, startTestServer, type TestServer } from '../support/test-server.js';
import { seedLinkedBoardAccount, startBoardApp, type LinkedBoardAccount } from '../support/monday-board-app.js';
import type { MondayEmulator } from '../support/monday-emulator/index.js';
import { exchangeWithLargeBody, trackConnections } from '../support/raw-http.js';
import { MCP_PATH } from '../mcp/mcp-helpers.js';

const SECRET = 'failure-table-signing-secret';
const TOKEN_KEY = randomBytes(32);
const BOARD = '/integrations/monday';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const UPSERT = 'mutation ($input: JSON!) { upsertContact(input: $input) { created } }';
const BY_ID = 'query ($id: String!) { contact(id: $id) { id } }';
const BY_EXTERNAL_ID = 'query ($id: String!) { contactByExternalId(sourceKind: "hubspot", externalId: $id) { id } }';
/** A contact whose dedup key (the custom field `code`) is over 512 characters. */
const longCode = () => ({ phone: freshPhone(), customFields: { code: 'x'.repeat(600) } });

/** What a surface answered, reduced to what the table states. */
type Http = { status: number; body: Record<string, any> };
type GraphqlAnswer = { extension: string } | Http;
type McpAnswer =
  | { form: 'tool_error'; body: Record<string, any> }
  | { form: 'http'; status: number; body: Record<string, any> }
  | { form: 'json_rpc'; status: number; rpcCode: number };
type MondayUser = { mondayAccountId: number; mondayUserId: number };

interface Surfaces {
  rest(): Promise<Http>;
  graphql(): Promise<GraphqlAnswer>;
  mcp(): Promise<McpAnswer>;
  board(): Promise<Http>;
}

let mondayAccounts = 610_000 + Math.floor(Math.random() * 80_000);
let phones = Math.floor(Math.random() * 1_000_000);
const freshPhone = () => `+1415${String(3_000_000 + (phones++ % 1_000_000))}`;

/** The surfaces' own mappings of an error that cannot be raised through them. */
const mapped = {
  rest: (error: unknown): Http => {
    const failure = failureOf(error, 'req-map', () => {});
    return { status: failure.status, body: errorBody(failure, 'req-map') };
  },
  graphql: (error: DomainError): GraphqlAnswer => ({ extension: String(error.extensions.code) }),
  mcp: (error: unknown): McpAnswer => {
    const result = toolError(error, 'req-map', () => {});
    expect(result.isError).toBe(true);
    return { form: 'tool_error', body: JSON.parse((result.content[0] as { text: string }).text) };
  },
  board: (error: unknown): Http => {
    const failure = actionFailureOf(error, 'req-map');
    return { status: failure.status, body: failure.body as Record<string, any> };
  },
};

/** The board form an action answer shows. */
function boardFormOfAnswer(answer: Http): BoardForm {
  if (answer.body.severityCode === 4000) return 'run_failed';
  if (answer.body.severityCode === 6000) return 'automation_off';
  return answer.status >= 500 ? 'retry' : 'refused';
}

function expectErrorBody(answer: Http, code: ErrorCode): void {
  expect(answer.status).toBe(FAILURES[code].status);
  expect(answer.body).toMatchObject({
    code,
    error: STATUS_CODES[FAILURES[code].status],
    message: expect.any(String),
    requestId: expect.any(String),
  });
  expect(answer.body).not.toHaveProperty('reason');
}

/** Sends raw bytes and parses the answer Node's parser refusal gets (its error body). */
async function rawAnswer(server: TestServer, bytes: string): Promise<Http> {
  const { port } = server.service.server.address() as AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (d) => (answer += d.toString('utf8')));
  socket.on('error', () => {});
  socket.write(bytes);
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const end = answer.indexOf('\r\n\r\n');
  return { status: Number(answer.slice(0, end).split(' ')[1]), body: JSON.parse(answer.slice(end + 4)) };
}

/** The answer Node's parser refusal of `code` gets (request_timeout cannot be waited for: its mapping). */
async function clientErrorAnswer(code: string): Promise<Http> {
  const socket = new PassThrough();
  let written = '';
  socket.on('data', (d) => (written += d.toString('utf8')));
  answerClientError(Object.assign(new Error(code), { code }), socket);
  await new Promise((r) => setImmediate(r));
  const end = written.indexOf('\r\n\r\n');
  return { status: Number(written.slice(0, end).split(' ')[1]), body: JSON.parse(written.slice(end + 4)) };
}

describe.each(testDatabaseKinds())('the failure table on %s', (kind) => {
  let server: TestServer;
  let limited: TestServer;
  let monday: MondayEmulator;
  let linked: LinkedBoardAccount;

  beforeAll(async () => {
    const app = { signingSecret: SECRET, appId: 10155, tokenKey: TOKEN_KEY, retry: { delaysMs: [10] } };
    ({ monday, server } = await startBoardApp(kind, app));
    trackConnections(server.service.server);
    linked = await seedAccount();
    // A second service whose address limit (one request an hour) is spent here: every surface's 429.
    const edge = { RATE_LIMIT_PER_ADDRESS: 1, RATE_LIMIT_WINDOW_SECONDS: 3600 };
    limited = await startTestServer(kind, { ...everySurface(), edge });
    expect((await limited.request(null, 'GET', '/api/v1/contacts')).status).toBe(401);
  });
  afterAll(async () => {
    await server?.stop();
    await limited?.stop();
    await monday?.close();
  });

  /** A linked Account whose "Leads" board is mapped (names, phone, time zone, company). */
  async function seedAccount(options: { map?: boolean } = {}): Promise<LinkedBoardAccount> {
    const seeded = { tokenKey: TOKEN_KEY, mondayAccountId: mondayAccounts++, workflowName: 'Outreach' };
    const account = await seedLinkedBoardAccount(server, monday, seeded);
    if (options.map !== false) {
      const input = {
        boardId: account.boardId,
        firstNameColumnId: 'first',
        lastNameColumnId: 'last',
        phoneColumnId: 'phone',
        timezoneColumnId: 'tz',
        extraFields: [{ columnId: 'company', identifier: 'company' }],
      };
      const mapped = await server.request(account.apiKey, 'POST', '/graphql', {
        query: 'mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId } }',
        variables: { input },
      });
      expect(mapped.json.errors).toBeUndefined();
    }
    return account;
  }

  /** A GraphQL operation's first error code, or the HTTP answer when /graphql refused the request. */
  async function graphqlError(
    target: TestServer,
    apiKey: string | null,
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<GraphqlAnswer> {
    const res = await target.request(apiKey, 'POST', '/graphql', { query, variables });
    if (res.status !== 200) return { status: res.status, body: res.json as Record<string, any> };
    const errors = (res.json as { errors?: Array<{ extensions: { code: string } }> }).errors;
    expect(errors?.length, JSON.stringify(res.json)).toBeGreaterThan(0);
    return { extension: errors![0].extensions.code };
  }

  async function rest(to: TestServer, key: string | null, method: string, path: string, body?: unknown): Promise<Http> {
    const res = await to.request(key, method, path, body);
    return { status: res.status, body: res.json as Record<string, any> };
  }

  /** One tools/call over the tool server's HTTP endpoint (stateless: no session needed). */
  async function mcpCall(
    target: TestServer,
    apiKey: string | null,
    name: string,
    args: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<McpAnswer> {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } };
    const res = await target.request(apiKey, 'POST', MCP_PATH, message, { ...MCP_HEADERS, ...headers });
    const json = res.json as any;
    if (res.status !== 200) {
      if (json?.jsonrpc) return { form: 'json_rpc', status: res.status, rpcCode: json.error.code };
      return { form: 'http', status: res.status, body: json };
    }
    expect(json.result?.isError, JSON.stringify(json)).toBe(true);
    return { form: 'tool_error', body: JSON.parse(json.result.content[0].text) };
  }

  /** The first answer to an action run monday sends (before any retry of its). */
  async function boardRun(path: string, user: MondayUser, inputFields: Record<string, unknown>, jwt?: string | null) {
    const url = `${server.baseUrl}${BOARD}${path}`;
    const { mondayAccountId: accountId, mondayUserId: userId } = user;
    const run = await monday.runAction({ url, accountId, userId, inputFields, jwt });
    const first = run.attempts[0];
    return { status: first.status!, body: first.body as Record<string, any> } satisfies Http;
  }

  const enrollFields = (account: LinkedBoardAccount, itemId: string | number, workflowId = account.workflowId) => ({
    boardId: Number(account.boardId),
    itemId: Number(itemId),
    workflowId: { title: 'Outreach', value: workflowId },
  });
  const enroll = (account: LinkedBoardAccount, itemId: string | number, workflowId?: string) =>
    boardRun('/actions/enroll', account, enrollFields(account, itemId, workflowId));
  const setStatus = (fields: Record<string, unknown>) =>
    boardRun('/actions/set-status', linked, {
      boardId: Number(linked.boardId),
      itemId: Number(addLead(linked)),
      statusColumnId: 'outcome',
      ...fields,
    });
  const addLead = (account: LinkedBoardAccount, values: Record<string, unknown> = {}) => {
    const phone = { phone: freshPhone(), countryShortName: 'US' };
    const item = { first: 'Jane', last: 'Doe', phone, company: 'Acme', ...values };
    return monday.addItem({ boardId: account.boardId, name: 'Jane Doe', values: item }).id;
  };

  /** A large body declared to `path` (only its head and 64 KB are sent): the refusal from the declared length. */
  async function oversize(method: string, path: string, bytes: number, headers: Record<string, string>): Promise<Http> {
    const head = { 'content-type': 'application/json', ...headers };
    const answer = await exchangeWithLargeBody(server.service.server, method, path, head, bytes);
    return { status: answer.status, body: JSON.parse(answer.body) };
  }
  const mondayJwt = (account: MondayUser, path: string, secret?: string) =>
    monday.mintJwt({
      accountId: account.mondayAccountId,
      userId: account.mondayUserId,
      aud: `${server.baseUrl}${BOARD}${path}`,
      secret,
    });
  const bearer = () => ({ authorization: `Bearer ${linked.apiKey}` });

  /** A header section over Node's limit, sent to `path`. */
  const bigHeaders = (path: string) =>
    rawAnswer(server, `POST ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);

  const PROVOKE: Record<ErrorCode, Surfaces> = {
    bad_request: {
      rest: () => rest(server, linked.apiKey, 'GET', '/api/v1/contacts?limit=0'),
      graphql: () => graphqlError(server, linked.apiKey, '{ contacts(limit: 0) { nextToken } }'),
      mcp: () => mcpCall(server, linked.apiKey, 'contacts_search', { limit: 0 }),
      // A first name over the contact rules' 128 characters: the upsert refuses the item.
      board: () => enroll(linked, addLead(linked, { first: 'J'.repeat(200) })),
    },
    unauthenticated: {
      rest: () => rest(server, null, 'GET', '/api/v1/contacts'),
      // An API key calling one of the board app's own operations.
      graphql: () => graphqlError(server, linked.apiKey, '{ boardWorkflowOptions { nextToken } }'),
      mcp: () => mcpCall(server, null, 'contacts_search', {}),
      board: () => {
        const forged = mondayJwt(linked, '/actions/enroll', 'not-the-signing-secret');
        return boardRun('/actions/enroll', linked, enrollFields(linked, 1), forged);
      },
    },
    forbidden: {
      rest: async () => mapped.rest(new DomainError('forbidden', 'refused')),
      graphql: async () => mapped.graphql(new DomainError('forbidden', 'refused')),
      mcp: () => mcpCall(server, linked.apiKey, 'contacts_search', {}, { origin: 'https://evil.example' }),
      // A monday account nobody linked.
      board: () => boardRun('/actions/enroll', { mondayAccountId: mondayAccounts++, mondayUserId: 1 }, { itemId: 1 }),
    },
    not_found: {
      rest: () => rest(server, linked.apiKey, 'GET', `/api/v1/contacts/${randomUUID()}`),
      graphql: () => graphqlError(server, linked.apiKey, BY_ID, { id: randomUUID() }),
      mcp: () => mcpCall(server, linked.apiKey, 'contact_get', { id: randomUUID() }),
      board: async () => mapped.board(new DomainError('not_found', 'No such thing')),
    },
    conflict: {
      rest: async () => {
        const path = `/api/v1/contacts/source/hubspot/external-id/${await sharedExternalId()}`;
        return rest(server, linked.apiKey, 'GET', path);
      },
      graphql: async () => graphqlError(server, linked.apiKey, BY_EXTERNAL_ID, { id: await sharedExternalId() }),
      mcp: async () =>
        mcpCall(server, linked.apiKey, 'contact_get_by_external_id', {
          sourceKind: 'hubspot',
          externalId: await sharedExternalId(),
        }),
      board: async () => mapped.board(new DomainError('conflict', 'Two contacts', { contacts: [] })),
    },
    idempotency_key_in_use: {
      rest: async () => mapped.rest(new DomainError('idempotency_key_in_use', 'Still running')),
      graphql: async () => mapped.graphql(new DomainError('idempotency_key_in_use', 'Still running')),
      mcp: async () => mapped.mcp(new DomainError('idempotency_key_in_use', 'Still running')),
      board: async () => mapped.board(new DomainError('idempotency_key_in_use', 'Still running')),
    },
    idempotency_key_reused: {
      // One key, two bodies: the second is refused.
      rest: async () => {
        const headers = { 'idempotency-key': `reused-${randomUUID()}` };
        const upsert = (phone: string) =>
          server.request(linked.apiKey, 'PUT', '/api/v1/contacts/upsert', { phone }, headers);
        expect((await upsert(freshPhone())).status).toBe(201);
        const res = await upsert(freshPhone());
        return { status: res.status, body: res.json as Record<string, any> };
      },
      graphql: async () => mapped.graphql(new DomainError('idempotency_key_reused', 'Another request')),
      mcp: async () => mapped.mcp(new DomainError('idempotency_key_reused', 'Another request')),
      board: async () => mapped.board(new DomainError('idempotency_key_reused', 'Another request')),
    },
    payload_too_large: {
      rest: () => oversize('PUT', '/api/v1/contacts/upsert', 11 * 1024 * 1024, bearer()),
      graphql: () => oversize('POST', '/graphql', 2 * 1024 * 1024, bearer()),
      mcp: async () => {
        const answer = await oversize('POST', MCP_PATH, 5 * 1024 * 1024, { ...MCP_HEADERS, ...bearer() });
        return { form: 'json_rpc', status: answer.status, rpcCode: answer.body.error.code };
      },
      board: () => {
        const authorization = mondayJwt(linked, '/actions/enroll');
        return oversize('POST', `${BOARD}/actions/enroll`, 2 * 1024 * 1024, { authorization });
      },
    },
    request_timeout: {
      rest: () => clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT'),
      graphql: () => clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT'),
      mcp: async () => ({ form: 'http', ...(await clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT')) }),
      board: () => clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT'),
    },
    rate_limited: {
      rest: () => rest(limited, null, 'GET', '/api/v1/contacts'),
      graphql: () => graphqlError(limited, null, '{ contacts { nextToken } }'),
      mcp: () => mcpCall(limited, null, 'contacts_search', {}),
      board: () => rest(limited, null, 'POST', `${BOARD}/actions/enroll`, {}),
    },
    request_header_fields_too_large: {
      rest: () => bigHeaders('/api/v1/contacts/upsert'),
      graphql: () => bigHeaders('/graphql'),
      mcp: async () => ({ form: 'http', ...(await bigHeaders(MCP_PATH)) }),
      board: () => bigHeaders(`${BOARD}/actions/enroll`),
    },
    invalid_phone: {
      rest: () => rest(server, linked.apiKey, 'PUT', '/api/v1/contacts/upsert', { phone: '+1 123' }),
      graphql: () => graphqlError(server, linked.apiKey, UPSERT, { input: { phone: '+1 123' } }),
      mcp: async () => mapped.mcp(new DomainError('invalid_phone', 'The phone cannot be read as a number')),
      board: () => enroll(linked, addLead(linked, { phone: { phone: '2025550169', countryShortName: 'US' } })),
    },
    missing_dedup_field: {
      rest: () => rest(server, linked.apiKey, 'PUT', '/api/v1/contacts/upsert', { firstName: 'Ada' }),
      graphql: () => graphqlError(server, linked.apiKey, UPSERT, { input: { firstName: 'Ada' } }),
      mcp: async () => mapped.mcp(new DomainError('missing_dedup_field', 'No dedup field')),
      board: async () => mapped.board(new DomainError('missing_dedup_field', 'No dedup field')),
    },
    dedup_key_too_long: {
      rest: async () => rest(server, (await keyedOnCode()).apiKey, 'PUT', '/api/v1/contacts/upsert', longCode()),
      graphql: async () => graphqlError(server, (await keyedOnCode()).apiKey, UPSERT, { input: longCode() }),
      mcp: async () => mapped.mcp(new DomainError('dedup_key_too_long', 'Too long')),
      board: async () => mapped.board(new DomainError('dedup_key_too_long', 'Too long')),
    },
    internal: {
      rest: async () => mapped.rest(new Error('connection reset by peer')),
      graphql: async () => mapped.graphql(new DomainError('internal', 'The service failed to handle the request')),
      mcp: async () => mapped.mcp(new Error('connection reset by peer')),
      board: async () => mapped.board(new Error('connection reset by peer')),
    },
    unavailable: {
      rest: async () => mapped.rest(new DomainError('unavailable', 'The database is unreachable')),
      graphql: async () => {
        // monday's API failing while the Account's board is read through the link.
        monday.failNext('500', 1);
        const query = 'query ($id: String!) { mondayBoard(boardId: $id) { name } }';
        return graphqlError(server, linked.apiKey, query, { id: linked.boardId });
      },
      mcp: async () => mapped.mcp(new DomainError('unavailable', 'monday is down')),
      board: async () => {
        monday.failNext('429', 1, { retryInSeconds: 1 });
        return boardRun('/actions/enroll', linked, enrollFields(linked, addLead(linked)));
      },
    },
  };

  let shared: Promise<string> | null = null;
  /** An external ID two contacts of the Account share. */
  function sharedExternalId(): Promise<string> {
    shared ??= (async () => {
      const externalId = `dup-${randomUUID()}`;
      for (let i = 0; i < 2; i++) {
        const body = { phone: freshPhone(), sourceKind: 'hubspot', externalId };
        const res = await server.request(linked.apiKey, 'PUT', '/api/v1/contacts/upsert', body);
        expect(res.status).toBe(201);
      }
      return externalId;
    })();
    return shared;
  }

  let onCode: Promise<{ apiKey: string }> | null = null;
  /** An Account whose dedup key is the custom field `code`. */
  const keyedOnCode = () => (onCode ??= server.createAccount({ dedupFields: ['customFields.code'] }));

  it('has a REST status, a GraphQL code, an MCP form and a board form for every code', () => {
    for (const [code, forms] of Object.entries(FAILURES)) {
      expect(STATUS_CODES[forms.status], code).toBeDefined();
      expect(forms.graphql, code).toBe(code);
      expect(['tool_error', 'http', 'json_rpc'] satisfies McpForm[], code).toContain(forms.mcp);
      expect(['run_failed', 'automation_off', 'retry', 'refused'] satisfies BoardForm[], code).toContain(forms.board);
      // A retry is a 5xx (monday retries those), anything else a 4xx.
      expect(forms.board === 'retry', code).toBe(forms.status >= 500);
    }
    expect(Object.keys(PROVOKE).sort()).toEqual(Object.keys(FAILURES).sort());
  });

  describe.each(Object.keys(FAILURES) as ErrorCode[])('%s', (code) => {
    const forms = FAILURES[code];

    it(`REST: HTTP ${forms.status} with the error body`, async () => {
      expectErrorBody(await PROVOKE[code].rest(), code);
    });

    it(`GraphQL: extensions.code ${forms.graphql}, or the HTTP answer of a refusal before yoga`, async () => {
      const answer = await PROVOKE[code].graphql();
      if ('extension' in answer) expect(answer.extension).toBe(forms.graphql);
      else expectErrorBody(answer, code);
    });

    it(`MCP: ${forms.mcp}`, async () => {
      const answer = await PROVOKE[code].mcp();
      expect(answer.form).toBe(forms.mcp);
      if (answer.form === 'json_rpc') {
        expect(answer.status).toBe(forms.status);
        expect(answer.rpcCode).toBe(MCP_SERVER_ERROR);
      } else if (answer.form === 'http') {
        expectErrorBody(answer, code);
      } else {
        expect(answer.body).toMatchObject({ code, error: STATUS_CODES[forms.status], requestId: expect.any(String) });
      }
    });

    it(`board app action: ${forms.board}`, async () => {
      const answer = await PROVOKE[code].board();
      expect(boardFormOfAnswer(answer), JSON.stringify(answer)).toBe(boardFormOf(new DomainError(code, 'x')));
      if (forms.board === 'retry' || forms.board === 'refused') expectErrorBody(answer, code);
      else expect(answer.status).toBe(400);
    });
  });

  describe('reasons refine the board form', () => {
    const workflow = (options: { status?: 'draft' | 'archived'; paused?: boolean }) =>
      server.createWorkflow(linked.accountId, options);
    /** How each reason is provoked through the board app (a fresh Account where it changes state). */
    const REASONS: Record<FailureReason, () => Promise<Http>> = {
      workflow_not_found: async () => enroll(linked, addLead(linked), randomUUID()),
      workflow_draft: async () => enroll(linked, addLead(linked), await workflow({ status: 'draft' })),
      workflow_archived: async () => enroll(linked, addLead(linked), await workflow({ status: 'archived' })),
      workflow_paused: async () => enroll(linked, addLead(linked), await workflow({ paused: true })),
      board_not_mapped: async () => {
        const unmapped = await seedAccount({ map: false });
        return enroll(unmapped, addLead(unmapped));
      },
      item_on_other_board: async () => {
        const columns = [{ id: 'phone', type: 'phone' as const }];
        const other = monday.addBoard({ accountId: linked.mondayAccountId, name: 'Elsewhere', columns });
        const phone = { phone: freshPhone(), countryShortName: 'US' };
        const item = monday.addItem({ boardId: other.id, name: 'Elsewhere', values: { phone } });
        return boardRun('/actions/enroll', linked, { ...enrollFields(linked, item.id), boardId: other.id });
      },
      mapping_out_of_date: async () => {
        const account = await seedAccount();
        const item = addLead(account);
        const board = monday.state.boards.get(account.boardId)!;
        board.columns = board.columns.filter((c) => c.id !== 'company');
        return enroll(account, item);
      },
      phone_missing: async () => enroll(linked, addLead(linked, { phone: null })),
      // A British number on an item whose phone column says the US.
      phone_invalid: async () => {
        return enroll(linked, addLead(linked, { phone: { phone: '+442079460958', countryShortName: 'US' } }));
      },
      no_call_result: async () => setStatus({}),
      unknown_call_result: async () => setStatus({ callResult: 'made_up' }),
    };

    it.each(Object.keys(FAILURE_REASONS) as FailureReason[])('%s', async (reason) => {
      const answer = await REASONS[reason]();
      expect(boardFormOfAnswer(answer), JSON.stringify(answer)).toBe(FAILURE_REASONS[reason].board);
      expect(answer.status).toBe(400);
      expect(answer.body.runtimeErrorDescription).toContain(`${FAILURE_REASONS[reason].code} (${reason})`);
    });

    it("stay out of the API's error body: a paused workflow is REST's 400 bad_request", async () => {
      const paused = await server.createWorkflow(linked.accountId, { paused: true });
      const body = { phone: freshPhone(), assignmentOptions: { workflowId: paused } };
      const answer = await rest(server, linked.apiKey, 'PUT', '/api/v1/contacts/upsert', body);
      expectErrorBody(answer, 'bad_request');
      expect(answer.body.message).toMatch(/is paused/);
    });
  });
});
