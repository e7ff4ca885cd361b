// The customFields limits bound what a contact stores, not only what one write sends: keys not
// sent are kept, so writes each within the limits could add up past them. A single write
// (upsert, PATCH) whose merged object would pass a limit is a 400 naming customFields and
// stores nothing; an accepted bulk import skips that item (the rest are written) and a
// bulk-update skips that contact, each counted in its batch's result.
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases.js';
import { expectError, uniquePhone, useServerWithAccount } from '../support/api-helpers.js';
import { CUSTOM_FIELDS_LIMITS } from '../../src/domain/contacts/custom-fields.rules.js';

const { maxKeys } = CUSTOM_FIELDS_LIMITS;
/** `n` keys named prefix0, prefix1, … */
const keys = (prefix: string, n: number, value: unknown = 1) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, value]));

describe.each(testDatabaseKinds())('customFields limits after the merge on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind, {}, { defaultLocation: 'US' });

  /** A contact storing 150 custom fields (old0…old149), keyed on its phone. */
  async function contactWith150Fields(firstName?: string): Promise<{ phone: string; id: string }> {
    const phone = uniquePhone();
    const res = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      firstName,
      customFields: keys('old', 150),
    });
    expect(res.status).toBe(201);
    return { phone, id: res.json.id };
  }
  const storedFields = async (id: string) =>
    (await server.service.services.db.prisma.contact.findUniqueOrThrow({ where: { id } })).customFields as Record<
      string,
      unknown
    >;
  const batchResult = async () => {
    await server.eventually(
      async () =>
        (await server.service.services.db.prisma.importBatch.count({
          where: { accountId: account.accountId, status: 'pending' },
        })) === 0,
      30_000,
    );
    const [batch] = await server.service.services.db.prisma.importBatch.findMany({
      where: { accountId: account.accountId },
      orderBy: { createdAt: 'desc' },
      take: 1,
    });
    return batch.result;
  };

  it('upsert and PATCH: a 400 naming customFields when the merge would pass the key limit; nothing stored', async () => {
    const { phone, id } = await contactWith150Fields();
    const upsert = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      firstName: 'Changed',
      customFields: keys('new', 100),
    });
    expectError(upsert, 400, 'bad_request', ['issues']);
    expect(upsert.json.issues).toEqual([
      { path: 'customFields', message: expect.stringContaining(`at most ${maxKeys} keys`) },
    ]);
    expect(upsert.json.message).toContain("merged with the contact's stored custom fields");

    const patch = await server.request(account.apiKey, 'PATCH', `/api/v1/contacts/source/api/external-id/${id}`, {
      firstName: 'Changed',
      customFields: keys('new', 100),
    });
    expectError(patch, 400, 'bad_request', ['issues']);
    expect(patch.json.issues[0].path).toBe('customFields');

    const contact = await server.service.services.db.prisma.contact.findUniqueOrThrow({ where: { id } });
    expect(contact.firstName).toBeNull();
    expect(Object.keys(contact.customFields as object)).toHaveLength(150);
  });

  it('keys sent as null make room: the merge at exactly the limit is stored', async () => {
    const { id } = await contactWith150Fields();
    const patch = await server.request(account.apiKey, 'PATCH', `/api/v1/contacts/source/api/external-id/${id}`, {
      customFields: { ...keys('old', 50, null), ...keys('new', 100) },
    });
    expect(patch.status).toBe(200);
    expect(Object.keys(patch.json.customFields)).toHaveLength(maxKeys);
    expect(Object.keys(await storedFields(id))).toHaveLength(maxKeys);
  });

  it('bulk import: the item whose merge would pass the limit is skipped, the others are written', async () => {
    const { phone, id } = await contactWith150Fields();
    const other = uniquePhone();
    const res = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk', {
      contacts: [
        { sourceKind: 'csv', externalId: null, phone, firstName: 'Skipped', customFields: keys('new', 100) },
        { sourceKind: 'csv', externalId: null, phone: other, firstName: 'Written', customFields: keys('new', 100) },
      ],
    });
    expect(res.status).toBe(202);
    expect(await batchResult()).toEqual({ written: 1, skipped: 1 });
    const contact = await server.service.services.db.prisma.contact.findUniqueOrThrow({ where: { id } });
    expect(contact.firstName).toBeNull();
    expect(Object.keys(contact.customFields as object)).toHaveLength(150);
    const written = await server.service.services.db.prisma.contact.findFirstOrThrow({
      where: { accountId: account.accountId, phone: other },
    });
    expect(written.firstName).toBe('Written');
  });

  it('bulk-update: a contact whose merge would pass the limit is skipped and counted', async () => {
    const { id } = await contactWith150Fields('Wave');
    const small = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      firstName: 'Wave',
      customFields: keys('old', 10),
    });
    expect(small.status).toBe(201);
    const res = await server.request(account.apiKey, 'POST', '/api/v1/contacts/bulk-update', {
      filter: { firstName: 'Wave' },
      data: { customFields: keys('wave', 100) },
    });
    expect(res.status, res.text).toBe(202);
    expect(await batchResult()).toEqual({ updated: 1, skipped: 1 });
    expect(Object.keys(await storedFields(id))).toHaveLength(150);
    expect(Object.keys(await storedFields(small.json.id))).toHaveLength(110);
  });
});
