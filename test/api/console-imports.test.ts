// The console's Imports page over HTTP, as a browser sends it (a multipart upload, forms,
// cookies, Origin): a CSV with bad rows is previewed with the CLI's mapping, one column's choice
// is changed, and the import stores the good rows (read back through the REST API) and reports
// the bad ones by file line; console.js's JSON steps of 1000 rows; refused files, each said next
// to the file field; CSRF and another person's upload. On each database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone } from '../support/api-helpers.js';
import { testDatabaseKinds } from '../support/databases.js';
import { exchangeWithLargeBody, trackConnections } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { CONSOLE_PASSWORD, personWithPassword } from '../support/console-people.js';

const PASSWORD = CONSOLE_PASSWORD;
const UUID = /\/console\/imports\/([0-9a-f-]{36})$/;

describe.each(testDatabaseKinds())('console imports over HTTP on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    trackConnections(server.service.server);
  });
  afterAll(() => server?.stop());

  /** A browser: keeps the console cookie, sends Origin on posts; forms urlencoded, or multipart with a file. */
  function browser() {
    let cookie: string | undefined;
    async function go(
      method: 'GET' | 'POST',
      path: string,
      body?: Record<string, string> | URLSearchParams | FormData,
      headers: Record<string, string> = {},
    ) {
      const sent =
        body instanceof FormData || body instanceof URLSearchParams ? body : body && new URLSearchParams(body);
      const res = await fetch(server.baseUrl + path, {
        method,
        redirect: 'manual',
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(method === 'POST' ? { origin: server.baseUrl } : {}),
          ...headers,
        },
        body: sent,
      });
      const set = res.headers.get('set-cookie');
      if (set) cookie = /Max-Age=0/i.test(set) ? undefined : set.split(';')[0];
      return { status: res.status, headers: res.headers, html: await res.text() };
    }
    return { go, cookie: () => cookie ?? '' };
  }
  /** The mapping form as sent: the token, then one `mapping` per column. */
  function mappingForm(csrf: string, mapping: string[]) {
    const form = new URLSearchParams({ csrf });
    for (const choice of mapping) form.append('mapping', choice);
    return form;
  }
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

  async function signedIn() {
    const { accountId, apiKey, email } = await personWithPassword(server, { defaultLocation: 'US' });
    const b = browser();
    expect((await b.go('POST', '/console/sign-in', { email, password: PASSWORD })).status).toBe(303);
    const csrf = csrfOf((await b.go('GET', '/console/imports')).html);
    return { accountId, apiKey, b, csrf };
  }

  /** The upload form as a browser sends it: the token first, then the file. */
  function uploadForm(
    csrf: string | null,
    file?: { name: string; text: string | Uint8Array<ArrayBuffer>; type?: string },
  ) {
    const form = new FormData();
    if (csrf !== null) form.append('csrf', csrf);
    if (file) form.append('file', new Blob([file.text], { type: file.type ?? 'text/csv' }), file.name);
    return form;
  }

  async function uploaded(b: ReturnType<typeof browser>, csrf: string, csv: string) {
    const res = await b.go('POST', '/console/imports', uploadForm(csrf, { name: 'leads.csv', text: csv }));
    expect(res.status, res.html).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(UUID);
    return location;
  }

  const contactsOf = async (apiKey: string) => {
    const res = await server.request(apiKey, 'GET', '/api/v1/contacts?limit=100');
    expect(res.status).toBe(200);
    return res.json.data as Array<Record<string, any>>;
  };

  /** The select of column `index`, and the option it has selected. */
  const selected = (html: string, index: number) => {
    const select = new RegExp(`<select id="map-${index}"[^>]*>(.*?)</select>`, 's').exec(html)?.[1] ?? '';
    return /<option value="([^"]+)" selected/.exec(select)?.[1];
  };

  it('previews a CSV with the suggested mapping, imports it with one column changed, and reports the bad rows by line', async () => {
    const { b, apiKey, csrf } = await signedIn();
    const phones = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];
    const csv = [
      'First Name,Surname,Mobile,Company,Notes,Priority',
      `Ada,Lovelace,${phones[0]},Analytical Engines,likes maths,1`,
      'Grace,Hopper,call-me,Navy,,2', // line 3: not a phone at all (the schema's 400)
      `Alan,Turing,${phones[1]},Bletchley,,high`, // line 4: refused by the mapping (priority)
      'Kathy,Johnson,12,NASA,,', // line 5: parsed, but not a possible number (importContacts' rejection)
      `Mary,Jackson,${phones[2]},NASA,engineer,`,
      `Dorothy,Vaughan,${phones[3]},NASA,,3`,
    ].join('\r\n');
    const location = await uploaded(b, csrf, csv);

    const preview = await b.go('GET', location);
    expect(preview.status).toBe(200);
    // The first five rows, with their file lines; the sixth is not in the preview.
    for (const name of ['Ada', 'Grace', 'Alan', 'Kathy', 'Mary']) expect(preview.html).toContain(`<td>${name}</td>`);
    expect(preview.html).not.toContain('<td>Dorothy</td>');
    expect(preview.html).toContain('<th scope="row">2</th>');
    // The CLI's rules: by header name; unknown columns are custom fields under their header.
    expect([0, 1, 2, 3, 4, 5].map((i) => selected(preview.html, i))).toEqual([
      'firstName',
      'lastName',
      'phone',
      'custom',
      'custom',
      'priority',
    ]);
    expect(preview.html).toContain('<label for="map-2">Column Mobile</label>');
    expect(preview.html).toContain('custom field (Company)');
    expect(preview.html).toMatch(/<progress id="import-progress" max="6" value="0"/);

    // The person skips the Notes column, and imports (without script: one form post).
    const mapping = ['firstName', 'lastName', 'phone', 'custom', 'skip', 'priority'];
    const res = await b.go('POST', `${location}/import`, mappingForm(csrfOf(preview.html), mapping));
    expect(res.status, res.html).toBe(303);
    expect(res.headers.get('location')).toBe(location);

    const done = await b.go('GET', location);
    expect(done.status).toBe(200);
    expect(done.html).toContain('3 of 6 rows accepted; 3 not imported.');
    const lines = [
      ...done.html.matchAll(
        /<tr><th scope="row" data-label="Line">(\d+)<\/th><td data-label="Reason"><code>([a-z-]+)<\/code><\/td>/g,
      ),
    ].map((m) => [Number(m[1]), m[2]]);
    expect(lines).toEqual([
      [3, 'invalid-field'],
      [4, 'invalid-priority'],
      [5, 'invalid-phone'],
    ]);
    expect(done.html).toContain('priority &quot;high&quot; is not a whole number');

    // The good rows become contacts (written by the import queue within seconds).
    const contacts = await server.eventually(async () => {
      const found = await contactsOf(apiKey);
      return found.length >= 3 ? found : undefined;
    }, 30_000);
    const byName = Object.fromEntries(contacts.map((c) => [c.firstName, c]));
    expect(Object.keys(byName).sort()).toEqual(['Ada', 'Dorothy', 'Mary']);
    expect(byName.Ada).toMatchObject({ lastName: 'Lovelace', phone: phones[0], priority: 1, sourceKind: 'csv' });
    expect(byName.Ada.customFields).toEqual({ Company: 'Analytical Engines' });
    expect(byName.Mary.customFields).toEqual({ Company: 'NASA' }); // Notes skipped

    // Importing again changes nothing: the upload is done.
    const again = await b.go('POST', `${location}/import`, { csrf: csrfOf(done.html) });
    expect(again.status).toBe(303);
    expect((await b.go('GET', location)).html).toContain('3 of 6 rows accepted');
  }, 60_000);

  it("console.js's steps: 1000 rows a request, answered with the progress", async () => {
    const { b, accountId, csrf } = await signedIn();
    const rows = Array.from({ length: 1200 }, (_, i) => `Name${i},${uniquePhone()}`);
    const location = await uploaded(b, csrf, ['name,phone', ...rows].join('\n'));
    const page = await b.go('GET', location);
    const post = async (mapping: string[]) => {
      const res = await b.go('POST', `${location}/import`, mappingForm(csrfOf(page.html), mapping), {
        accept: 'application/json',
      });
      return { status: res.status, json: JSON.parse(res.html) };
    };
    const refused = await post(['phone', 'phone']);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/mapping\[1\]: phone is already the field of column "name"/);

    const first = await post(['fullName', 'phone']);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: 'importing', rowsDone: 1000, rowCount: 1200, accepted: 1000 });
    const second = await post([]); // later steps keep the first step's mapping
    expect(second.json).toMatchObject({ status: 'done', rowsDone: 1200, rowCount: 1200, accepted: 1200 });
    const count = await server.eventually(async () => {
      const n = await server.service.services.db.prisma.contact.count({ where: { accountId } });
      return n >= 1200 ? n : undefined;
    }, 30_000);
    expect(count).toBe(1200);
  }, 90_000);

  it('a mapping that gives one field to two columns is refused next to the second column', async () => {
    const { b, csrf } = await signedIn();
    const location = await uploaded(b, csrf, `name,phone,mobile\nAda,${uniquePhone()},${uniquePhone()}\n`);
    const page = await b.go('GET', location);
    expect(selected(page.html, 2)).toBe('custom'); // phone taken by the earlier column
    const res = await b.go(
      'POST',
      `${location}/import`,
      mappingForm(csrfOf(page.html), ['fullName', 'phone', 'phone']),
    );
    const { html } = res;
    expect(res.status).toBe(400);
    expect(html).toMatch(/id="map-2-error"[^>]*>phone is already the field of column &quot;phone&quot;/);
    expect(html).toMatch(
      /<select id="map-2" name="mapping" aria-invalid="true" aria-describedby="map-2-hint map-2-error"/,
    );
    expect(selected(html, 2)).toBe('phone'); // the person's choice is kept
  });

  it('refuses files that cannot be imported, with the reason next to the file field (400)', async () => {
    const { b, csrf } = await signedIn();
    const cases: Array<[FormData, RegExp]> = [
      [uploadForm(csrf), /Choose a CSV file to upload/],
      [uploadForm(csrf, { name: '', text: '', type: 'application/octet-stream' }), /Choose a CSV file to upload/],
      [
        uploadForm(csrf, { name: 'leads.xlsx', text: 'PK\u0003\u0004', type: 'application/vnd.ms-excel.sheet' }),
        /“leads.xlsx” is not a CSV file/,
      ],
      [uploadForm(csrf, { name: 'leads.csv', text: '' }), /The file is empty/],
      [uploadForm(csrf, { name: 'leads.csv', text: '\n  \n' }), /The file is empty/],
      [uploadForm(csrf, { name: 'leads.csv', text: new Uint8Array([0x6e, 0x61, 0xff, 0xfe, 0x0a]) }), /not UTF-8/],
      [
        uploadForm(csrf, { name: 'leads.csv', text: `${uniquePhone()},Ada\n${uniquePhone()},Grace\n` }),
        /looks like a row/,
      ],
      [uploadForm(csrf, { name: 'leads.csv', text: ',,\n1,2,3\n' }), /names no columns/],
      [uploadForm(csrf, { name: 'leads.csv', text: 'name,phone\n' }), /no rows under it/],
      [
        uploadForm(csrf, { name: 'leads.csv', text: 'Phone,name,phone\n1,2,3\n' }),
        /More than one column is named &quot;phone&quot;|More than one column is named "phone"/,
      ],
      [
        uploadForm(csrf, { name: 'big.csv', text: `name,phone\n${'x'.repeat(10 * 1024 * 1024)}\n` }),
        /larger than 10 MB/,
      ],
    ];
    for (const [form, message] of cases) {
      const res = await b.go('POST', '/console/imports', form);
      expect(res.status, String(message)).toBe(400);
      const error = /<p class="field-error" id="file-error">([^<]*)<\/p>/.exec(res.html)?.[1] ?? '';
      expect(error).toMatch(message);
      expect(res.html).toContain('aria-invalid="true" aria-describedby="file-hint file-error"');
    }
    // Declared far over the limit: refused before the server reads it.
    const huge = await exchangeWithLargeBody(
      server.service.server,
      'POST',
      '/console/imports',
      // (The raw request's Host has no port: its Origin matches that.)
      { origin: 'http://127.0.0.1', cookie: b.cookie(), 'content-type': 'multipart/form-data; boundary=x' },
      50 * 1024 * 1024,
    );
    expect(huge.status).toBe(400);
    expect(huge.body).toContain('larger than 10 MB');
    expect(huge.serverBytesRead).toBeLessThan(5 * 1024 * 1024);
  }, 60_000);

  it('refuses an upload or an import without the CSRF token (403), and another person’s upload (404)', async () => {
    const owner = await signedIn();
    const location = await uploaded(owner.b, owner.csrf, `name,phone\nAda,${uniquePhone()}\n`);

    const noToken = await owner.b.go(
      'POST',
      '/console/imports',
      uploadForm(null, { name: 'a.csv', text: 'name\nx\n' }),
    );
    expect(noToken.status).toBe(403);
    const wrongToken = await owner.b.go(
      'POST',
      '/console/imports',
      uploadForm('nope', { name: 'a.csv', text: 'name\nx\n' }),
    );
    expect(wrongToken.status).toBe(403);
    const importNoToken = await owner.b.go('POST', `${location}/import`, { mapping: 'fullName' });
    expect(importNoToken.status).toBe(403);

    const other = await signedIn();
    const seen = await other.b.go('GET', location);
    expect(seen.status).toBe(404);
    expect(seen.html).toContain('No such upload');
    const imported = await other.b.go('POST', `${location}/import`, { csrf: other.csrf, mapping: 'fullName' });
    expect(imported.status).toBe(404);
    expect((await other.b.go('GET', '/console/imports/not-an-id')).status).toBe(404);
    // Still the owner's, untouched.
    const page = await owner.b.go('GET', location);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Import 1 row');
  });

  it('asks a signed-out browser to sign in', async () => {
    const res = await browser().go('GET', '/console/imports');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/sign-in?next=%2Fconsole%2Fimports');
  });
});
