import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '@mondaydotcomorg/api';
import { startMondayEmulator, type MondayEmulator } from '../support/monday-emulator/index.js';

const ACCOUNT = 1825529;
const USER = 4012689;
const BOARD = '1234567890';
const OTHER_BOARD = '5550001';

const READ_ITEM = /* GraphQL */ `
  query ReadItem($itemIds: [ID!], $columnIds: [String!]) {
    complexity { query before after reset_in_x_seconds }
    items(ids: $itemIds) {
      id name board { id }
      column_values(ids: $columnIds) {
        id type text value column { title }
        ... on PhoneValue { phone country_short_name }
        ... on WorldClockValue { timezone }
        ... on StatusValue { label index }
      }
    }
  }
`;

const SIMPLE = /* GraphQL */ `
  mutation ($boardId: ID!, $itemId: ID!, $columnId: String!, $value: String, $create: Boolean) {
    change_simple_column_value(board_id: $boardId, item_id: $itemId, column_id: $columnId, value: $value, create_labels_if_missing: $create) { id }
  }
`;
const CHANGE = /* GraphQL */ `
  mutation ($boardId: ID!, $itemId: ID!, $columnId: String!, $value: JSON!, $create: Boolean) {
    change_column_value(board_id: $boardId, item_id: $itemId, column_id: $columnId, value: $value, create_labels_if_missing: $create) { id }
  }
`;
const MULTI = /* GraphQL */ `
  mutation ($boardId: ID!, $itemId: ID!, $columnValues: JSON!, $create: Boolean) {
    change_multiple_column_values(board_id: $boardId, item_id: $itemId, column_values: $columnValues, create_labels_if_missing: $create) { id name }
  }
`;

interface ColumnValueOut {
  id: string;
  type: string;
  text: string | null;
  value: string | null;
  column: { title: string };
  phone?: string | null;
  country_short_name?: string | null;
  timezone?: string | null;
  label?: string | null;
  index?: number | null;
}
interface ReadItemResult {
  complexity: { query: number; before: number; after: number; reset_in_x_seconds: number };
  items: { id: string; name: string; board: { id: string }; column_values: ColumnValueOut[] }[];
}

/** ClientError (graphql-request) is duck-typed: it is not an ESM named export of @mondaydotcomorg/api. */
interface ClientErrorLike {
  response: {
    status: number;
    headers: Headers;
    errors?: {
      message: string;
      extensions?: {
        code?: string;
        status_code?: number;
        error_data?: Record<string, unknown>;
        retry_in_seconds?: number;
      };
    }[];
  };
}
async function rejectionOf(p: Promise<unknown>): Promise<ClientErrorLike> {
  try {
    await p;
  } catch (e) {
    expect(e).toHaveProperty('response');
    return e as ClientErrorLike;
  }
  throw new Error('expected the request to fail');
}

let monday: MondayEmulator;
let client: ApiClient;

function seed() {
  monday.state.boards.clear();
  monday.state.items.clear();
  monday.addBoard({
    id: BOARD,
    accountId: ACCOUNT,
    name: 'Leads',
    columns: [
      { id: 'text_first', title: 'First name', type: 'text' },
      { id: 'phone_1', title: 'Phone', type: 'phone' },
      { id: 'world_clock_1', title: 'Time zone', type: 'world_clock' },
      {
        id: 'status',
        title: 'Call status',
        type: 'status',
        labels: { 0: 'Working on it', 1: 'Done', 2: 'Stuck', 8: '42' },
      },
      { id: 'text_tz', title: 'TZ text', type: 'text' },
      { id: 'notes', title: 'Notes', type: 'long_text' },
      { id: 'numbers', title: 'Score', type: 'numbers' },
      { id: 'email', title: 'Email', type: 'email' },
    ],
  });
  monday.addItem({
    id: '9876543210',
    boardId: BOARD,
    name: 'Jane Doe',
    values: {
      text_first: 'Jane',
      phone_1: { phone: '+12025550169', countryShortName: 'US' },
      world_clock_1: { timezone: 'America/New_York' },
      status: { label: 'Done' },
    },
  });
  monday.addItem({ id: '9876543211', boardId: BOARD, name: 'Empty Person' });
  monday.addBoard({ id: OTHER_BOARD, accountId: 999, name: 'Other account', columns: [{ id: 'text', type: 'text' }] });
  monday.addItem({ id: '7000', boardId: OTHER_BOARD, name: 'Not yours' });
}

beforeAll(async () => {
  monday = await startMondayEmulator();
});
afterAll(async () => {
  await monday.close();
});
beforeEach(() => {
  seed();
  monday.state.faults = [];
  monday.state.requests.length = 0;
  monday.setLatency(0);
  client = new ApiClient({ token: monday.issueToken(ACCOUNT, USER), apiVersion: '2026-10', endpoint: monday.url });
});

async function readItem(itemId: string, columnIds?: string[]) {
  const r = await client.request<ReadItemResult>(READ_ITEM, { itemIds: [itemId], columnIds });
  return r.items[0];
}
function cv(item: ReadItemResult['items'][number], id: string) {
  const v = item.column_values.find((c) => c.id === id);
  if (!v) throw new Error(`no column value ${id}`);
  return v;
}

describe('monday emulator: reads', () => {
  it('reads an item with mapped columns, fragments, values and text per type', async () => {
    const r = await client.request<ReadItemResult>(READ_ITEM, {
      itemIds: ['9876543210'],
      columnIds: ['text_first', 'phone_1', 'world_clock_1', 'status', 'text_tz'],
    });
    expect(r.complexity.query).toBeGreaterThan(0);
    expect(r.complexity.after).toBe(r.complexity.before - r.complexity.query);
    expect(r.complexity.reset_in_x_seconds).toBeGreaterThanOrEqual(0);
    const item = r.items[0];
    expect(item).toMatchObject({ id: '9876543210', name: 'Jane Doe', board: { id: BOARD } });
    expect(item.column_values.map((c) => c.id)).toEqual([
      'text_first',
      'phone_1',
      'world_clock_1',
      'status',
      'text_tz',
    ]);

    expect(cv(item, 'text_first')).toEqual({
      id: 'text_first',
      type: 'text',
      text: 'Jane',
      value: '"Jane"',
      column: { title: 'First name' },
    });
    const phone = cv(item, 'phone_1');
    expect(phone).toMatchObject({
      type: 'phone',
      text: '+12025550169',
      phone: '+12025550169',
      country_short_name: 'US',
    });
    expect(JSON.parse(phone.value!)).toEqual({ phone: '+12025550169', countryShortName: 'US' });
    const wc = cv(item, 'world_clock_1');
    expect(wc).toMatchObject({ type: 'world_clock', timezone: 'America/New_York', column: { title: 'Time zone' } });
    expect(JSON.parse(wc.value!)).toEqual({ timezone: 'America/New_York' });
    const st = cv(item, 'status');
    expect(st).toMatchObject({ type: 'status', text: 'Done', label: 'Done', index: 1 });
    expect(JSON.parse(st.value!)).toEqual({ index: 1 });
    // empty column: value null, text ""
    expect(cv(item, 'text_tz')).toMatchObject({ type: 'text', text: '', value: null });
  });

  it('empty columns: null values, status text/label null; all non-name columns without ids', async () => {
    const item = await readItem('9876543211');
    expect(item.column_values.map((c) => c.id)).not.toContain('name');
    expect(item.column_values).toHaveLength(8);
    for (const c of item.column_values) expect(c.value).toBeNull();
    expect(cv(item, 'status')).toMatchObject({ text: null, label: null, index: null });
    expect(cv(item, 'phone_1')).toMatchObject({ text: '', phone: null, country_short_name: null });
  });

  it('unknown ids and other accounts’ items yield an empty list', async () => {
    const r = await client.request<ReadItemResult>(READ_ITEM, { itemIds: ['1', '7000'] });
    expect(r.items).toEqual([]);
  });

  it('boards with columns', async () => {
    const r = await client.request<{
      boards: { id: string; name: string; columns: { id: string; title: string; type: string }[] }[];
    }>(`query ($ids: [ID!]) { boards(ids: $ids) { id name columns { id title type } } }`, {
      ids: [Number(BOARD), OTHER_BOARD],
    });
    expect(r.boards).toHaveLength(1);
    expect(r.boards[0]).toMatchObject({ id: BOARD, name: 'Leads' });
    expect(r.boards[0].columns.slice(0, 4)).toEqual([
      { id: 'name', title: 'Name', type: 'name' },
      { id: 'text_first', title: 'First name', type: 'text' },
      { id: 'phone_1', title: 'Phone', type: 'phone' },
      { id: 'world_clock_1', title: 'Time zone', type: 'world_clock' },
    ]);
  });

  it('more than 100 item ids → GraphQL error', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => String(i + 1));
    const err = await rejectionOf(client.request(READ_ITEM, { itemIds: ids }));
    expect(err.response.status).toBe(200);
    expect(err.response.errors?.[0].extensions?.code).toBe('ItemsLimitationException');
    // exactly 100 is fine
    await expect(client.request<ReadItemResult>(READ_ITEM, { itemIds: ids.slice(0, 100) })).resolves.toMatchObject({
      items: [],
    });
  });

  it('records API-Version, query, variables; sends RateLimit headers', async () => {
    const raw = await client.rawRequest<ReadItemResult>(READ_ITEM, { itemIds: ['9876543210'] });
    const last = monday.requests.at(-1)!;
    expect(last.apiVersion).toBe('2026-10');
    expect(last.query).toContain('query ReadItem');
    expect(last.variables).toEqual({ itemIds: ['9876543210'] });
    expect(last.status).toBe(200);
    expect(raw.headers.get('ratelimit-policy')).toContain('"minuteRate";q=');
    expect(raw.headers.get('ratelimit')).toMatch(/"complexityMinute";r=\d+;t=\d+/);
  });
});

describe('monday emulator: auth', () => {
  it('unknown token → 401, client throws', async () => {
    const bad = new ApiClient({ token: 'nope', apiVersion: '2026-10', endpoint: monday.url });
    const err = await rejectionOf(bad.request(READ_ITEM, { itemIds: ['9876543210'] }));
    expect(err.response.status).toBe(401);
  });

  it('short-lived token expires after 5 minutes; Bearer prefix tolerated', async () => {
    const token = monday.issueToken(ACCOUNT, USER);
    const bearer = new ApiClient({ token: `Bearer ${token}`, apiVersion: '2026-10', endpoint: monday.url });
    await expect(bearer.request<ReadItemResult>(READ_ITEM, { itemIds: ['9876543210'] })).resolves.toBeTruthy();
    monday.advanceTime(299_000);
    await expect(bearer.request<ReadItemResult>(READ_ITEM, { itemIds: ['9876543210'] })).resolves.toBeTruthy();
    monday.advanceTime(1_000);
    const err = await rejectionOf(bearer.request(READ_ITEM, { itemIds: ['9876543210'] }));
    expect(err.response.status).toBe(401);
    expect(err.response.errors?.[0].extensions?.error_data).toEqual({ reason: 'expired' });
  });
});

describe('monday emulator: writes', () => {
  const item = '9876543210';
  const ids = { boardId: BOARD, itemId: item };

  it('change_simple_column_value: text, phone, status by label and by index', async () => {
    await client.request(SIMPLE, { ...ids, columnId: 'text_tz', value: 'America/New_York' });
    expect(monday.readValue(item, 'text_tz')).toMatchObject({ value: 'America/New_York', text: 'America/New_York' });

    await client.request(SIMPLE, { ...ids, columnId: 'phone_1', value: '+442079460958 GB' });
    expect(monday.readValue(item, 'phone_1').value).toEqual({ phone: '+442079460958', countryShortName: 'GB' });

    await client.request(SIMPLE, { ...ids, columnId: 'status', value: 'Stuck' });
    expect(monday.readValue(item, 'status')).toMatchObject({ value: { index: 2 }, label: 'Stuck' });
    await client.request(SIMPLE, { ...ids, columnId: 'status', value: '8' }); // numeric label "42" via index
    expect(monday.readValue(item, 'status')).toMatchObject({ value: { index: 8 }, label: '42' });

    await client.request(SIMPLE, { ...ids, columnId: 'text_tz', value: '' });
    expect(monday.readValue(item, 'text_tz')).toMatchObject({ value: null, text: '' });
  });

  it('change_column_value: JSON-encoded values for text, phone, world_clock, status', async () => {
    await client.request(CHANGE, { ...ids, columnId: 'text_first', value: JSON.stringify('Janet') });
    await client.request(CHANGE, {
      ...ids,
      columnId: 'phone_1',
      value: JSON.stringify({ phone: '2025550170', countryShortName: 'US' }),
    });
    await client.request(CHANGE, {
      ...ids,
      columnId: 'world_clock_1',
      value: JSON.stringify({ timezone: 'Europe/London' }),
    });
    await client.request(CHANGE, { ...ids, columnId: 'status', value: JSON.stringify({ index: 0 }) });
    const read = await readItem(item, ['text_first', 'phone_1', 'world_clock_1', 'status']);
    expect(cv(read, 'text_first').value).toBe('"Janet"');
    expect(cv(read, 'phone_1')).toMatchObject({ phone: '2025550170', country_short_name: 'US' });
    expect(cv(read, 'world_clock_1').timezone).toBe('Europe/London');
    expect(cv(read, 'status')).toMatchObject({ label: 'Working on it', index: 0 });

    await client.request(CHANGE, { ...ids, columnId: 'status', value: JSON.stringify({ label: 'Done' }) });
    expect(monday.readValue(item, 'status').label).toBe('Done');
    // clearing
    await client.request(CHANGE, { ...ids, columnId: 'world_clock_1', value: JSON.stringify({}) });
    expect(monday.readValue(item, 'world_clock_1').value).toBeNull();
  });

  it('change_multiple_column_values: several columns plus the name key', async () => {
    const r = await client.request<{ change_multiple_column_values: { id: string; name: string } }>(MULTI, {
      ...ids,
      columnValues: JSON.stringify({
        name: 'Janet Doe',
        text_tz: 'Asia/Tokyo',
        phone_1: { phone: '+12025550171', countryShortName: 'US' },
        world_clock_1: { timezone: 'Asia/Tokyo' },
        status: { label: 'Stuck' },
        numbers: '42',
        notes: { text: 'called twice' },
        email: { email: 'jane@example.com', text: 'Jane' },
      }),
    });
    expect(r.change_multiple_column_values).toEqual({ id: item, name: 'Janet Doe' });
    const snap = monday.readItem(item);
    expect(snap.name).toBe('Janet Doe');
    expect(snap.values.text_tz.value).toBe('Asia/Tokyo');
    expect(snap.values.phone_1.value).toEqual({ phone: '+12025550171', countryShortName: 'US' });
    expect(snap.values.world_clock_1.value).toEqual({ timezone: 'Asia/Tokyo' });
    expect(snap.values.status.label).toBe('Stuck');
    expect(snap.values.numbers.value).toBe('42');
    expect(snap.values.notes.text).toBe('called twice');
    expect(snap.values.email.value).toEqual({ email: 'jane@example.com', text: 'Jane' });
  });

  it('change_multiple_column_values is atomic: one bad entry changes nothing', async () => {
    const err = await rejectionOf(
      client.request(MULTI, {
        ...ids,
        columnValues: JSON.stringify({ name: 'X', text_tz: 'UTC', phone_1: { phone: 'abc', countryShortName: 'US' } }),
      }),
    );
    expect(err.response.errors?.[0].extensions?.code).toBe('ColumnValueException');
    expect(monday.readItem(item).name).toBe('Jane Doe');
    expect(monday.readValue(item, 'text_tz').value).toBeNull();
  });

  it('bad phone → ColumnValueException (HTTP 200, column_type phone)', async () => {
    for (const value of ['12ab US', '+12025550169 us', '+12025550169', '+12025550169 ZZ', '+12025550169 GB']) {
      const err = await rejectionOf(client.request(SIMPLE, { ...ids, columnId: 'phone_1', value }));
      expect(err.response.status, value).toBe(200);
      expect(err.response.errors?.[0].extensions, value).toMatchObject({
        code: 'ColumnValueException',
        error_data: { column_type: 'phone' },
      });
    }
    const err = await rejectionOf(
      client.request(CHANGE, {
        ...ids,
        columnId: 'phone_1',
        value: JSON.stringify({ phone: '+12025550169', countryShortName: 'usa' }),
      }),
    );
    expect(err.response.errors?.[0].extensions?.code).toBe('ColumnValueException');
    expect(monday.readValue(item, 'phone_1').value).toEqual({ phone: '+12025550169', countryShortName: 'US' });
  });

  it('world_clock refuses simple values and unknown time zones', async () => {
    let err = await rejectionOf(client.request(SIMPLE, { ...ids, columnId: 'world_clock_1', value: 'Europe/London' }));
    expect(err.response.errors?.[0].extensions).toMatchObject({
      code: 'ColumnValueException',
      error_data: { column_type: 'world_clock' },
    });
    err = await rejectionOf(
      client.request(CHANGE, {
        ...ids,
        columnId: 'world_clock_1',
        value: JSON.stringify({ timezone: 'Mars/Olympus' }),
      }),
    );
    expect(err.response.errors?.[0].extensions?.code).toBe('ColumnValueException');
    expect(monday.readValue(item, 'world_clock_1').value).toEqual({ timezone: 'America/New_York' });
  });

  it('unknown status label → ColumnValueException unless create_labels_if_missing', async () => {
    const err = await rejectionOf(client.request(SIMPLE, { ...ids, columnId: 'status', value: 'Called' }));
    expect(err.response.errors?.[0].extensions).toMatchObject({
      code: 'ColumnValueException',
      error_data: { column_type: 'status' },
    });
    expect(err.response.errors?.[0].message).toMatch(/label does not exist/);

    await client.request(CHANGE, {
      ...ids,
      columnId: 'status',
      value: JSON.stringify({ label: 'Called' }),
      create: true,
    });
    const st = monday.readValue(item, 'status');
    expect(st.label).toBe('Called');
    expect(monday.state.boards.get(BOARD)!.columns.find((c) => c.id === 'status')!.labels).toMatchObject({
      3: 'Called',
    });
    const err2 = await rejectionOf(
      client.request(CHANGE, { ...ids, columnId: 'status', value: JSON.stringify({ index: 17 }) }),
    );
    expect(err2.response.errors?.[0].extensions?.code).toBe('ColumnValueException');
  });

  it('unknown column, board and item ids', async () => {
    let err = await rejectionOf(client.request(SIMPLE, { ...ids, columnId: 'nope', value: 'x' }));
    expect(err.response.errors?.[0].extensions).toMatchObject({
      code: 'InvalidColumnIdException',
      error_data: { column_id: 'nope' },
    });
    err = await rejectionOf(client.request(MULTI, { ...ids, columnValues: JSON.stringify({ nope: 'x' }) }));
    expect(err.response.errors?.[0].extensions?.code).toBe('InvalidColumnIdException');
    err = await rejectionOf(client.request(SIMPLE, { boardId: '42', itemId: item, columnId: 'text_tz', value: 'x' }));
    expect(err.response.errors?.[0].extensions?.code).toBe('InvalidBoardIdException');
    err = await rejectionOf(
      client.request(SIMPLE, { boardId: OTHER_BOARD, itemId: '7000', columnId: 'text', value: 'x' }),
    );
    expect(err.response.errors?.[0].extensions?.code).toBe('InvalidBoardIdException');
    err = await rejectionOf(client.request(SIMPLE, { boardId: BOARD, itemId: '123', columnId: 'text_tz', value: 'x' }));
    expect(err.response.errors?.[0].extensions?.code).toBe('ResourceNotFoundException');
    err = await rejectionOf(client.request(CHANGE, { ...ids, columnId: 'text_tz', value: '{not json' }));
    expect(err.response.errors?.[0].extensions?.code).toBe('JsonParseException');
  });

  it('works through the SDK’s typed operations too', async () => {
    await client.operations.changeSimpleColumnValueOp({
      boardId: BOARD,
      itemId: item,
      columnId: 'text_tz',
      value: 'UTC',
    });
    expect(monday.readValue(item, 'text_tz').value).toBe('UTC');
    const r = await client.operations.changeMultipleColumnValuesOp({
      boardId: BOARD,
      itemId: item,
      columnValues: JSON.stringify({ status: 'Done' }),
    });
    expect(r.change_multiple_column_values?.column_values?.find((c) => c.id === 'status')?.value).toBe('{"index":1}');
  });
});

describe('monday emulator: faults and limits', () => {
  it('429 fault → client error carrying status, Retry-After and retry_in_seconds; then recovers', async () => {
    monday.failNext('429', 1, { retryInSeconds: 12 });
    const err = await rejectionOf(client.request(READ_ITEM, { itemIds: ['9876543210'] }));
    expect(err.response.status).toBe(429);
    expect(err.response.headers.get('retry-after')).toBe('12');
    expect(err.response.errors?.[0].extensions).toMatchObject({
      code: 'COMPLEXITY_BUDGET_EXHAUSTED',
      retry_in_seconds: 12,
      status_code: 429,
    });
    await expect(client.request<ReadItemResult>(READ_ITEM, { itemIds: ['9876543210'] })).resolves.toBeTruthy();
  });

  it('500 fault for the next N requests', async () => {
    monday.failNext('500', 2);
    expect((await rejectionOf(client.request(READ_ITEM, { itemIds: ['1'] }))).response.status).toBe(500);
    expect((await rejectionOf(client.request(READ_ITEM, { itemIds: ['1'] }))).response.status).toBe(500);
    await expect(client.request(READ_ITEM, { itemIds: ['1'] })).resolves.toBeTruthy();
    expect(monday.requests.map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it('artificial latency', async () => {
    monday.setLatency(120);
    const t0 = Date.now();
    await client.request(READ_ITEM, { itemIds: ['1'] });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
  });

  it('configured per-minute limit → 429 RATE_LIMIT_EXCEEDED; window slides with the clock', async () => {
    monday.state.limits.requestsPerMinute = 2;
    try {
      const token = monday.issueToken(777, 1, null);
      monday.addBoard({ accountId: 777, columns: [] });
      const c = new ApiClient({ token, apiVersion: '2026-10', endpoint: monday.url });
      await c.request(READ_ITEM, { itemIds: ['1'] });
      await c.request(READ_ITEM, { itemIds: ['1'] });
      const err = await rejectionOf(c.request(READ_ITEM, { itemIds: ['1'] }));
      expect(err.response.status).toBe(429);
      expect(err.response.errors?.[0].extensions?.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(err.response.headers.get('retry-after'))).toBeGreaterThan(0);
      monday.advanceTime(61_000);
      await expect(c.request(READ_ITEM, { itemIds: ['1'] })).resolves.toBeTruthy();
    } finally {
      monday.state.limits.requestsPerMinute = undefined;
    }
  });

  it('configured concurrency limit → 429 maxConcurrencyExceeded for the overlapping request', async () => {
    monday.state.limits.concurrency = 1;
    monday.setLatency(80);
    try {
      const results = await Promise.allSettled([
        client.request(READ_ITEM, { itemIds: ['1'] }),
        client.request(READ_ITEM, { itemIds: ['1'] }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
      const err = rejected.reason as ClientErrorLike;
      expect(err.response.status).toBe(429);
      expect(err.response.errors?.[0].extensions?.code).toBe('maxConcurrencyExceeded');
    } finally {
      monday.state.limits.concurrency = undefined;
    }
  });

  it('complexity budget per minute → 429 COMPLEXITY_BUDGET_EXHAUSTED, resets after the window', async () => {
    const token = monday.issueToken(888, 1);
    const c = new ApiClient({ token, apiVersion: '2026-10', endpoint: monday.url });
    const first = await c.request<ReadItemResult>(READ_ITEM, { itemIds: ['1'] });
    monday.state.limits.complexityPerMinute = first.complexity.query * 2;
    try {
      const second = await c.request<ReadItemResult>(READ_ITEM, { itemIds: ['1'] });
      expect(second.complexity.after).toBe(0);
      const err = await rejectionOf(c.request(READ_ITEM, { itemIds: ['1'] }));
      expect(err.response.status).toBe(429);
      expect(err.response.errors?.[0].extensions).toMatchObject({
        code: 'COMPLEXITY_BUDGET_EXHAUSTED',
        complexity_budget_left: 0,
      });
      monday.advanceTime(60_000);
      await expect(c.request(READ_ITEM, { itemIds: ['1'] })).resolves.toBeTruthy();
    } finally {
      monday.state.limits.complexityPerMinute = undefined;
    }
  });
});
