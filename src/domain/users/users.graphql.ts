// Console users: the operator's invitation (the one-time link where a user sets a password).
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { UserType } from '../accounts/accounts.graphql.js';
import { type Invitation, inviteUser } from './invitations.service.js';

const InvitationType = builder.objectRef<Invitation>('UserInvitation').implement({
  description: 'A one-time console link: the user opens it and sets a password.',
  fields: (t) => ({
    user: t.field({ type: UserType, resolve: (invitation) => invitation.user }),
    path: t.exposeString('path', {
      description: "The link's path on the service (prefix the service's address); shown once, never stored.",
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

builder.mutationFields((t) => ({
  inviteUser: t.field({
    type: InvitationType,
    description:
      "Operator: creates the Account's console user of this email (or finds it) and a one-time link where " +
      'they set their password; an earlier link of theirs stops working.',
    args: {
      accountId: t.arg.string({ required: true, ...UUID_ARG }),
      email: t.arg.string({ required: true }),
      name: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      inviteUser(ctx, { accountId: args.accountId, email: args.email, name: args.name ?? undefined }),
  }),
}));
