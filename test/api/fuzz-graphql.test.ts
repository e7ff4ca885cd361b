// Property-based fuzzing of POST /graphql (fast-check): every argument of every Query and
// Mutation field of the domain schema, read from the schema itself (so a new operation is
// fuzzed without editing this file), gets generated hostile values (NUL, lone surrogates,
// huge strings, deep JSON, wrong types) as a variable and as an inline literal, sent with an
// API key and with the operator token. No answer is a 5xx or an INTERNAL_SERVER_ERROR, and a
// refused request stores nothing.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/domain/schema.js';
import { ADMIN_TOKEN } from '../support/test-server.js';
import { useServerWithAccount } from '../support/api-helpers.js';
import { testDatabaseKinds } from '../support/databases.js';
import { fuzzOptions, hostileString, hostileValue, toJson, wrongType } from '../support/hostile-values.js';

interface Target {
  operation: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
  argument: GraphQLArgument;
}

const targets: Target[] = [
  ...Object.values(schema.getQueryType()!.getFields()).flatMap((field) =>
    field.args.map((argument) => ({ operation: 'query' as const, field, argument })),
  ),
  ...Object.values(schema.getMutationType()!.getFields()).flatMap((field) =>
    field.args.map((argument) => ({ operation: 'mutation' as const, field, argument })),
  ),
];

/** Values for one argument: hostile text for text, any hostile value for JSON, wrong types for the rest. */
function valuesFor(argument: GraphQLArgument): fc.Arbitrary<unknown> {
  const type = getNullableType(argument.type);
  if (isListType(type)) return fc.oneof(fc.array(hostileString, { maxLength: 3 }), hostileValue);
  const named = getNamedType(type).name;
  if (named === 'JSON') return hostileValue;
  if (named === 'String' || named === 'ID')
    return fc.oneof({ arbitrary: hostileString, weight: 4 }, { arbitrary: wrongType, weight: 1 });
  return fc.oneof(wrongType, hostileString);
}

describe.each(testDatabaseKinds())('GraphQL fuzz on %s', (kind) => {
  const { server, account } = useServerWithAccount(kind);

  /** The rows of every table a GraphQL write could change, counted in one statement. */
  const stored = async () => {
    const { rows } = await server.service.services.db.sql.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM "Account") AS accounts, (SELECT count(*)::int FROM "User") AS users,
              (SELECT count(*)::int FROM "ApiKey") AS keys, (SELECT count(*)::int FROM "Workflow") AS workflows,
              (SELECT count(*)::int FROM "Agent") AS agents, (SELECT count(*)::int FROM "Contact") AS contacts,
              (SELECT count(*)::int FROM "ImportBatch") AS batches, (SELECT count(*)::int FROM "BlockedPhone") AS blocked,
              (SELECT count(*)::int FROM "ImportBatch" WHERE "status" = 'pending') AS pending`,
      [],
    );
    return rows[0];
  };

  /** A valid-looking value for an argument the case does not fuzz (the Account's own ids). */
  function placeholder(argument: GraphQLArgument): unknown {
    if (argument.name === 'accountId') return account.accountId;
    if (argument.name === 'userId') return account.userId;
    if (argument.extensions?.uuid) return randomUUID();
    const type = getNullableType(argument.type);
    if (isListType(type)) return ['phone'];
    const named = getNamedType(type);
    if (isEnumType(named)) return named.getValues()[0].value;
    if (named.name === 'JSON') return {};
    if (named.name === 'Int') return 1;
    if (named.name === 'Boolean') return true;
    return 'x';
  }

  /** The operation calling `field` with every argument as a variable. */
  function document({ operation, field }: Target): string {
    const variables = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
    const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
    return `${operation}(${variables}) { ${field.name}(${args})${selection} }`;
  }

  /** The same call with the fuzzed argument written inline (text as a string literal). */
  function inlineDocument({ operation, field, argument }: Target, text: string): string {
    const variableArgs = field.args.filter((arg) => arg !== argument);
    const variables =
      variableArgs.length > 0 ? `(${variableArgs.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ')})` : '';
    const args = [
      ...variableArgs.map((arg) => `${arg.name}: $${arg.name}`),
      `${argument.name}: ${JSON.stringify(text)}`,
    ].join(', ');
    const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
    return `${operation}${variables} { ${field.name}(${args})${selection} }`;
  }

  async function expectHandled(token: string, query: string, variables: Record<string, unknown>): Promise<void> {
    // An accepted import or bulk-update writes after its answer: wait for those first.
    const before = await server.eventually(async () => {
      const counts = await stored();
      return counts.pending === 0 ? counts : undefined;
    });
    const res = await server.request(token, 'POST', '/graphql', toJson({ query, variables }), {
      'content-type': 'application/json',
    });
    expect(res.status, res.text.slice(0, 500)).toBeLessThan(500);
    const codes = (res.json?.errors ?? []).map((e: { extensions?: { code?: string } }) => e.extensions?.code);
    expect(codes, res.text.slice(0, 500)).not.toContain('INTERNAL_SERVER_ERROR');
    expect(codes).not.toContain('internal');
    if (res.json?.errors?.length) expect(await stored()).toEqual(before);
  }

  it.each(targets.map((t) => [`${t.field.name}(${t.argument.name})`, t] as const))('%s', async (_name, target) => {
    await fc.assert(
      fc.asyncProperty(
        valuesFor(target.argument),
        fc.constantFrom('key', 'operator'),
        fc.boolean(),
        async (value, who, inline) => {
          const token = who === 'operator' ? ADMIN_TOKEN : account.apiKey;
          const others = Object.fromEntries(
            target.field.args
              .filter((arg) => arg !== target.argument && (isNonNullType(arg.type) || arg.extensions?.uuid))
              .map((arg) => [arg.name, placeholder(arg)]),
          );
          if (inline && typeof value === 'string') {
            await expectHandled(token, inlineDocument(target, value), others);
          } else {
            await expectHandled(token, document(target), { ...others, [target.argument.name]: value });
          }
        },
      ),
      fuzzOptions(12),
    );
  });

  it('inline JSON literals nested far deeper than any limit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 9, max: 6_000 }), async (levels) => {
        const literal = `${'{k:'.repeat(levels)}"v"${'}'.repeat(levels)}`;
        await expectHandled(
          account.apiKey,
          `mutation { upsertContact(input: { phone: "+14155550100", customFields: ${literal} }) { created } }`,
          {},
        );
      }),
      fuzzOptions(10),
    );
  });
});
