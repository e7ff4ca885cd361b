// The console's connected applications: the OAuth grants of the signed-in person's Account
// (docs/oauth.md), and their revocation.
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { type ConnectedApplication, listConnectedApplications, revokeConnectedApplication } from './oauth.service.js';

const ConnectedApplicationType = builder.objectRef<ConnectedApplication>('ConnectedApplication').implement({
  description:
    'An application a person of the Account connected to the tool server by OAuth: it reads as that person, with these scopes, until revoked.',
  fields: (t) => ({
    id: t.exposeID('id'),
    clientId: t.exposeString('clientId'),
    clientName: t.exposeString('clientName', { nullable: true, description: 'The name the application registered' }),
    userEmail: t.exposeString('userEmail', { description: 'The person who consented' }),
    scopes: t.exposeStringList('scopes'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryFields((t) => ({
  connectedApplications: t.field({
    type: [ConnectedApplicationType],
    description: "Console: the applications connected to the signed-in person's Account by OAuth, newest first.",
    resolve: (_root, _args, ctx) => listConnectedApplications(ctx),
  }),
}));

builder.mutationFields((t) => ({
  revokeConnectedApplication: t.field({
    type: 'ID',
    description: 'Console: revokes a connected application; its tokens are refused from now on.',
    args: { id: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: async (_root, args, ctx) => (await revokeConnectedApplication(ctx, args.id)).id,
  }),
}));
