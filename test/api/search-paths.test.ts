// searchTerm runs through several query shapes (one name word, several, short words,
// digits); each must return exactly what the rule says, in newest-first order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';

const FIRST = ['John', 'Johanna', 'Mary', 'Marco', 'Ann', 'Anne-Marie', "O'Brien", 'José', 'Li', 'Garth'];
const LAST = ['Smith', 'Smithers', 'Lee', 'Garcia', 'Johnson', 'Marley', 'De la Cruz', 'Brown', 'Li', 'Ma'];

interface Seeded {
  firstName: string;
  lastName: string;
  phone: string;
}

/** The rule, written plainly: every one of the first ten words matches. */
function matches(contact: Seeded, term: string): boolean {
  const words = term.trim().split(/\s+/).filter(Boolean).slice(0, 10);
  const digits = contact.phone.replace(/\D/g, '');
  return words.every((word) => {
    const wordDigits = word.replace(/\D/g, '');
    if (!/\p{L}/u.test(word) && wordDigits) return digits.includes(wordDigits);
    const w = word.toLowerCase();
    return contact.firstName.toLowerCase().startsWith(w) || contact.lastName.toLowerCase().startsWith(w);
  });
}

describe.each(testDatabaseKinds())('searchTerm query shapes on %s', (kind) => {
  let server: TestServer;
  let apiKey: string;
  const seeded: Seeded[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ apiKey } = await server.createAccount());
    const contacts = [];
    for (let i = 0; i < 300; i++) {
      const c = { firstName: FIRST[i % FIRST.length], lastName: LAST[(i * 7) % LAST.length], phone: `+1415${String(2000000 + i * 37).padStart(7, '0')}` };
      seeded.push(c);
      contacts.push({ ...c, sourceKind: 'api', externalId: `s-${i}` });
    }
    const res = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk', { contacts });
    expect(res.json.accepted).toBe(300);
    await server.eventually(async () => (await server.request(apiKey, 'GET', '/api/v1/contacts?limit=1&searchTerm=4152')).json.data.length > 0);
    await server.eventually(async () => {
      const all = await fetchAll('');
      return all.length === 300;
    });
  });
  afterAll(() => server?.stop());

  async function fetchAll(term: string): Promise<Array<{ externalId: string; createdAt: string; id: string }>> {
    const out = [];
    let token: string | undefined;
    do {
      const qs = new URLSearchParams({ limit: '100', ...(term ? { searchTerm: term } : {}), ...(token ? { nextToken: token } : {}) });
      const res = await server.request(apiKey, 'GET', `/api/v1/contacts?${qs}`);
      expect(res.status).toBe(200);
      out.push(...res.json.data);
      token = res.json.nextToken;
    } while (token);
    return out;
  }

  it.each([
    ['joh'], ['JOHN'], ['j'], ['jo'], ['mar smi'], ['ma ga'], ['smi 415'], ['415'], ['2000'], ['0370'],
    ["o'b"], ['anne-m'], ['josé'], ['li li'], ['zz'], ['de'], ['john smith 4152 x y z a b c d e f g'],
  ])('%s returns exactly the matching contacts, newest first', async (term) => {
    const got = await fetchAll(term);
    const expected = seeded.map((c, i) => ({ c, externalId: `s-${i}` })).filter(({ c }) => matches(c, term)).map((e) => e.externalId);
    expect(got.map((c) => c.externalId).sort()).toEqual(expected.sort());
    const order = got.map((c) => `${c.createdAt}|${c.id}`);
    expect(order).toEqual([...order].sort().reverse());
  });
});
