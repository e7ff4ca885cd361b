// The log rule (src/logging/redaction.ts) on real errors from real databases: a PGlite error
// carries the statement and its parameters, a PostgreSQL error's detail echoes key values,
// Prisma's validation error prints the call's arguments, and its raw-query error repeats the
// database's message. Logged through the service's logger, none of those values appears, and
// the error's type, code, message and stack do.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { scrubText } from '../../src/logging/redaction.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';

const PHONE = '+14155550199';
const NAME = 'Zebedeeworth';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger(stream as never, 'info'), lines, parsed: () => lines.map((l) => JSON.parse(l)) };
}

async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe.each(testDatabaseKinds())('log lines of database errors on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.sql.exec(`CREATE TABLE leak_probe (phone text UNIQUE, name text)`);
    await database.db.sql.query(`INSERT INTO leak_probe VALUES ($1, $2)`, [PHONE, NAME]);
  });
  afterAll(() => database?.drop());

  const cases: Array<[string, () => Promise<unknown>, string | undefined]> = [
    [
      'a unique violation (detail: the key value)',
      () => database.db.sql.query(`INSERT INTO leak_probe VALUES ($1, $2)`, [PHONE, NAME]),
      '23505',
    ],
    [
      'a value refused by its type (quoted in the message)',
      () => database.db.sql.query(`SELECT $1::uuid, $2::text`, [PHONE, NAME]),
      '22P02',
    ],
    [
      'a raised exception with the values in message, detail and hint',
      () =>
        database.db.sql.exec(
          `DO $$ BEGIN RAISE EXCEPTION 'refusing % at %', '${NAME}', '${PHONE}' USING DETAIL = 'Key (phone)=(${PHONE}) exists', HINT = '${NAME}'; END $$`,
        ),
      'P0001',
    ],
    [
      'Prisma: a raw query failing in the database',
      () => database.db.prisma.$queryRawUnsafe(`SELECT $1::uuid AS id, $2::text AS name`, PHONE, NAME),
      'P2010',
    ],
    [
      'Prisma: a validation error printing the arguments',
      () => database.db.prisma.contact.create({ data: { phone: PHONE, firstName: NAME } as never }),
      undefined,
    ],
  ];

  it.each(cases)('%s: no value in the line; type, code, message and stack kept', async (_name, work, code) => {
    const error = await failure(work);
    // The raw error does carry the values: what the rule is for.
    const raw = JSON.stringify({ ...(error as object), message: (error as Error).message });
    expect(raw.includes(PHONE) || raw.includes(NAME)).toBe(true);

    const { logger, lines, parsed } = capture();
    logger.error({ err: error, requestId: 'r-1' }, 'request failed');
    const text = lines.join('');
    expect(text).not.toContain(PHONE);
    expect(text).not.toContain(PHONE.slice(2));
    expect(text).not.toContain(NAME);
    const [line] = parsed();
    expect(line).toMatchObject({
      msg: 'request failed',
      requestId: 'r-1',
      err: { type: expect.any(String), message: expect.any(String) },
    });
    expect(line.err.stack).toMatch(/\n\s+at /);
    if (code) expect(line.err.code).toBe(code);
    for (const field of ['detail', 'hint', 'params', 'parameters', 'query', 'where', 'internalQuery'])
      expect(line.err).not.toHaveProperty(field);
  });
});

describe('the log rule', () => {
  it('scrubs quoted values, key values, phones and e-mails from text; keeps ids, names in backticks and plain words', () => {
    expect(scrubText('invalid input syntax for type uuid: "+14155550100"')).toBe(
      'invalid input syntax for type uuid: "…"',
    );
    expect(scrubText('Key ("accountId", "dedupKey")=(3f2a, +14155550100) already exists.')).not.toContain('4155550100');
    expect(scrubText('call to (415) 555-0100 or 00 44 20 7946 0958 failed')).toBe(
      'call to [number] or [number] failed',
    );
    expect(scrubText('mail ada@example.com bounced')).toBe('mail [email] bounced');
    const id = '3f2a9c10-1234-4567-8901-234567890abc';
    expect(scrubText(`batch ${id} failed at port 5432 in \`Contact\``)).toBe(
      `batch ${id} failed at port 5432 in \`Contact\``,
    );
  });

  it('censors data fields and keys logged by name, and scrubs the message', () => {
    const { logger, lines } = capture();
    logger.warn(
      { phone: PHONE, contact: { firstName: NAME }, authorization: 'Bearer svc_pk_secret', callId: 'c-1' },
      `no answer from ${PHONE}`,
    );
    const text = lines.join('');
    expect(text).not.toContain(PHONE);
    expect(text).not.toContain(NAME);
    expect(text).not.toContain('svc_pk_secret');
    expect(JSON.parse(text)).toMatchObject({ callId: 'c-1', phone: '[redacted]', msg: 'no answer from [number]' });
  });
});
