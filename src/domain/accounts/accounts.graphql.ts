// Operator operations on Accounts, users, API keys and the block list.
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import {
  accountSettings,
  createAccount,
  createUser,
  removeUser,
  updateAccount,
  updateAccountSettings,
} from './accounts.service.js';
import {
  createAccountApiKey,
  createApiKey,
  listAccountApiKeys,
  listApiKeys,
  revokeAccountApiKey,
  revokeApiKey,
  type ApiKeyRecord,
} from '../api-keys/api-keys.service.js';
import { blockPhone, unblockPhone } from '../blocklist/blocklist.service.js';

const AccountType = builder.prismaObject('Account', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    region: t.exposeString('region'),
    defaultLocation: t.exposeString('defaultLocation', { nullable: true }),
    dedupFields: t.exposeStringList('dedupFields'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const UserType = builder.prismaObject('User', {
  fields: (t) => ({
    id: t.exposeID('id'),
    accountId: t.exposeString('accountId'),
    email: t.exposeString('email'),
    name: t.exposeString('name', { nullable: true }),
    removedAt: t.expose('removedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the operator removed the user from the Account; null while they are in it.',
    }),
  }),
});

// Typed by the record the services return (never the secret's hash), so resolvers return it as it is.
const ApiKeyType = builder.objectRef<ApiKeyRecord>('ApiKey').implement({
  description: 'An API key. The secret is never stored; only its last four characters are shown.',
  fields: (t) => ({
    id: t.exposeID('id'),
    accountId: t.exposeString('accountId'),
    userId: t.exposeString('userId'),
    name: t.exposeString('name'),
    lastFour: t.exposeString('lastFour'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    scopes: t.stringList({
      nullable: true,
      description: 'What the key may do (docs/api-keys.md); null: every scope.',
      resolve: (key) => (key.scopes.length === 0 ? null : key.scopes),
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Refused from this instant on, like a revoked key; null: never.',
    }),
  }),
});

const BlockedPhoneType = builder.prismaObject('BlockedPhone', {
  fields: (t) => ({
    phone: t.exposeString('phone'),
    accountId: t.exposeString('accountId'),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

const CreatedKey = builder.objectRef<{ key: ApiKeyRecord; secret: string }>('CreatedApiKey').implement({
  fields: (t) => ({
    key: t.field({ type: ApiKeyType, resolve: (p) => p.key }),
    secret: t.exposeString('secret', { description: 'The key itself: shown once, never again.' }),
  }),
});

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: [ApiKeyType],
    description: "Operator: an Account's keys with their last-used times.",
    args: { accountId: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => listApiKeys(ctx, args.accountId),
  }),
  accountSettings: t.field({
    type: AccountType,
    description: "Console: the signed-in person's Account.",
    resolve: (_root, _args, ctx) => accountSettings(ctx),
  }),
  accountApiKeys: t.field({
    type: [ApiKeyType],
    description: "Console: the signed-in person's Account's keys (revoked ones too), oldest first.",
    resolve: (_root, _args, ctx) => listAccountApiKeys(ctx),
  }),
}));

builder.mutationFields((t) => ({
  createAccount: t.field({
    type: AccountType,
    args: { name: t.arg.string({ required: true }), region: t.arg.string(), defaultLocation: t.arg.string() },
    resolve: (_root, args, ctx) =>
      createAccount(ctx, { name: args.name, region: args.region ?? undefined, defaultLocation: args.defaultLocation }),
  }),
  updateAccount: t.field({
    type: AccountType,
    description:
      'Operator: sets the default location and/or the ordered dedup fields (phone, externalId, customFields.<key>).',
    args: {
      id: t.arg.string({ required: true, ...UUID_ARG }),
      defaultLocation: t.arg.string(),
      clearDefaultLocation: t.arg.boolean(),
      dedupFields: t.arg.stringList(),
    },
    resolve: (_root, args, ctx) =>
      updateAccount(ctx, args.id, {
        ...(args.clearDefaultLocation
          ? { defaultLocation: null }
          : args.defaultLocation
            ? { defaultLocation: args.defaultLocation }
            : {}),
        ...(args.dedupFields ? { dedupFields: args.dedupFields } : {}),
      }),
  }),
  updateAccountSettings: t.field({
    type: AccountType,
    description:
      "Console: the signed-in person's Account's default location and/or ordered dedup fields, as updateAccount sets them.",
    args: {
      defaultLocation: t.arg.string(),
      clearDefaultLocation: t.arg.boolean(),
      dedupFields: t.arg.stringList(),
    },
    resolve: (_root, args, ctx) =>
      updateAccountSettings(ctx, {
        ...(args.clearDefaultLocation
          ? { defaultLocation: null }
          : args.defaultLocation
            ? { defaultLocation: args.defaultLocation }
            : {}),
        ...(args.dedupFields ? { dedupFields: args.dedupFields } : {}),
      }),
  }),
  createUser: t.field({
    type: UserType,
    args: {
      accountId: t.arg.string({ required: true, ...UUID_ARG }),
      email: t.arg.string({ required: true }),
      name: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      createUser(ctx, { accountId: args.accountId, email: args.email, name: args.name ?? undefined }),
  }),
  removeUser: t.field({
    type: UserType,
    description:
      'Operator: removes a user from their Account. Their sessions end; their API keys and connected applications are revoked; they cannot sign in until invited again.',
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => removeUser(ctx, { id: args.id }),
  }),
  createApiKey: t.field({
    type: CreatedKey,
    description: 'Operator: a key for a user. Without scopes it has every scope; without expiresAt it never expires.',
    args: {
      userId: t.arg.string({ required: true, ...UUID_ARG }),
      name: t.arg.string({ required: true }),
      scopes: t.arg.stringList(),
      expiresAt: t.arg.string({ description: 'An ISO 8601 date-time in the future' }),
    },
    resolve: (_root, args, ctx) => createApiKey(ctx, args),
  }),
  revokeApiKey: t.field({
    type: ApiKeyType,
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => revokeApiKey(ctx, args.id),
  }),
  createAccountApiKey: t.field({
    type: CreatedKey,
    description: "Console: a key of the signed-in person's Account, owned by them; the secret is in this answer only.",
    args: {
      name: t.arg.string({ required: true }),
      scopes: t.arg.stringList(),
      expiresAt: t.arg.string({ description: 'An ISO 8601 date-time in the future' }),
    },
    resolve: (_root, args, ctx) => createAccountApiKey(ctx, args),
  }),
  revokeAccountApiKey: t.field({
    type: ApiKeyType,
    description: "Console: revokes a key of the signed-in person's Account; the API refuses it from then on.",
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => revokeAccountApiKey(ctx, args.id),
  }),
  blockPhone: t.field({
    type: BlockedPhoneType,
    description: "Operator: adds a phone to an Account's block list; its contacts become dnc.",
    args: {
      accountId: t.arg.string({ required: true, ...UUID_ARG }),
      phone: t.arg.string({ required: true }),
      reason: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      blockPhone(ctx, { accountId: args.accountId, phone: args.phone, reason: args.reason ?? undefined }),
  }),
  unblockPhone: t.boolean({
    args: { accountId: t.arg.string({ required: true, ...UUID_ARG }), phone: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => unblockPhone(ctx, args.accountId, args.phone),
  }),
}));
