// The MondayLink type (never its token) with the show/list/unlink operations. A key acts on
// its own Account; the operator token names the Account (accountId).
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { completeMondayLink, startMondayLink } from './console-link.service.js';
import {
  getMondayLink,
  linkerEmail,
  listMondayLinks,
  unlinkMonday,
  type MondayLinkRecord,
  type MondayUnlinkResult,
} from './monday-link.service.js';

// Typed by the record the services return (never the token), so resolvers return it as it is.
export const MondayLinkType = builder.objectRef<MondayLinkRecord>('MondayLink').implement({
  description:
    "The monday.com account linked to a Contactline Account by the board app's install. The access token is never shown.",
  fields: (t) => ({
    accountId: t.exposeString('accountId', { description: 'The Contactline Account' }),
    mondayAccountId: t.exposeString('mondayAccountId'),
    mondayUserId: t.exposeString('mondayUserId', { description: 'The monday user who approved the install' }),
    userId: t.exposeString('userId', {
      description: 'The Contactline user whose API key signed the install; board automations act as them',
    }),
    linkedByEmail: t.string({
      nullable: true,
      description: 'The email of the Contactline user who linked it (null once that user is removed)',
      resolve: (link, _args, ctx) => linkerEmail(ctx, link),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const MondayLinkPage = builder
  .objectRef<{ data: MondayLinkRecord[]; nextToken: string | null }>('MondayLinkPage')
  .implement({
    fields: (t) => ({
      data: t.field({ type: [MondayLinkType], resolve: (p) => p.data }),
      nextToken: t.exposeString('nextToken', { nullable: true }),
    }),
  });

const MondayUnlinkResultType = builder.objectRef<MondayUnlinkResult>('MondayUnlinkResult').implement({
  fields: (t) => ({
    accountId: t.exposeString('accountId'),
    removedLink: t.field({
      type: MondayLinkType,
      nullable: true,
      description: 'The link removed; null when there was none',
      resolve: (p) => p.removedLink,
    }),
    subscriptionsRemoved: t.exposeInt('subscriptionsRemoved', {
      description: 'Trigger subscriptions that stop firing',
    }),
  }),
});

const ACCOUNT_ID = 'Operator token: the Account (required). API key: optional, its own Account only.';

builder.queryFields((t) => ({
  mondayLink: t.field({
    type: MondayLinkType,
    nullable: true,
    description: "The Account's monday link, or null when it is not linked.",
    args: { accountId: t.arg.string({ ...UUID_ARG, description: ACCOUNT_ID }) },
    resolve: (_root, args, ctx) => getMondayLink(ctx, args.accountId),
  }),
  mondayLinks: t.field({
    type: MondayLinkPage,
    description: "Operator: every Account's monday link, newest first.",
    args: { limit: t.arg.int(), nextToken: t.arg.string() },
    resolve: (_root, args, ctx) =>
      listMondayLinks(ctx, { limit: args.limit ?? undefined, nextToken: args.nextToken ?? undefined }),
  }),
}));

builder.mutationFields((t) => ({
  unlinkMonday: t.field({
    type: MondayUnlinkResultType,
    description: 'Removes the Account\'s monday link and stops its "when a call ends" subscriptions. Idempotent.',
    args: { accountId: t.arg.string({ ...UUID_ARG, description: ACCOUNT_ID }) },
    resolve: (_root, args, ctx) => unlinkMonday(ctx, args.accountId),
  }),
}));

const MondayLinkStartType = builder.objectRef<{ authorizeUrl: string }>('MondayLinkStart').implement({
  fields: (t) => ({
    authorizeUrl: t.exposeString('authorizeUrl', {
      description: "monday's page where the person approves the app; send their browser there",
    }),
  }),
});

// The console's own: a signed-in person links their Account without an API key.
builder.mutationFields((t) => ({
  startMondayLink: t.field({
    type: MondayLinkStartType,
    description:
      "Console: monday's OAuth authorize page for the signed-in person's Account; its state is bound to their session (10 minutes).",
    resolve: (_root, _args, ctx) => startMondayLink(ctx),
  }),
  completeMondayLink: t.field({
    type: MondayLinkType,
    description:
      'Console: stores the link monday approved (its code and the state startMondayLink signed), in the same session that started it.',
    args: { code: t.arg.string({ required: true }), state: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => completeMondayLink(ctx, { code: args.code, state: args.state }),
  }),
}));
