// Operator operations on an Account's voice provider credentials. Secrets go in, never out:
// the type shows the API key's last four characters and whether a webhook secret is set.
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { inputTypeFromZod } from '../shared/zod-input-types.graphql.js';
import {
  listProviderCredentials,
  removeProviderCredentials,
  setProviderCredentials,
  type ProviderCredentialView,
} from './provider-credentials.service.js';
import { SetProviderCredentialsSchema } from './provider-credentials.service.js';

const ProviderCredentialType = builder.objectRef<ProviderCredentialView>('ProviderCredential').implement({
  description:
    "An Account's key for a voice provider (Vapi or Retell). The secrets are stored encrypted and never shown.",
  fields: (t) => ({
    accountId: t.exposeString('accountId'),
    provider: t.exposeString('provider', { description: 'vapi or retell' }),
    apiKeyLastFour: t.exposeString('apiKeyLastFour', { description: "The API key's last four characters" }),
    webhookSecretSet: t.exposeBoolean('webhookSecretSet', {
      description:
        'Whether a webhook secret is stored (Vapi: required; Retell: when the webhook key is not the API key)',
    }),
    maxConcurrentCalls: t.exposeInt('maxConcurrentCalls', {
      nullable: true,
      description: "Calls in flight on this key at most (null: the provider's default)",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  providerCredentials: t.field({
    type: [ProviderCredentialType],
    description: "Operator: the Account's voice provider credentials (never the secrets).",
    args: { accountId: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => listProviderCredentials(ctx, args.accountId),
  }),
}));

builder.mutationFields((t) => ({
  setProviderCredentials: t.field({
    type: ProviderCredentialType,
    description:
      "Operator: stores or rotates an Account's key for a voice provider ({ accountId, provider: vapi|retell, apiKey, webhookSecret?, maxConcurrentCalls? }).",
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => setProviderCredentials(ctx, args.input),
  }),
  removeProviderCredentials: t.field({
    type: 'Boolean',
    description: "Operator: forgets an Account's key for a provider (true when there was one).",
    args: { accountId: t.arg.string({ required: true, ...UUID_ARG }), provider: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => removeProviderCredentials(ctx, args.accountId, args.provider),
  }),
}));

// setProviderCredentials with a typed input, generated from the zod schema the service parses it with.
const SetProviderCredentialsInput = inputTypeFromZod('SetProviderCredentialsInput', SetProviderCredentialsSchema, {
  description: "An Account's key for a voice provider, to store or rotate.",
});

builder.mutationFields((t) => ({
  setProviderCredentialsTyped: t.field({
    type: ProviderCredentialType,
    description: "setProviderCredentials with a typed input: operator, stores or rotates an Account's provider key.",
    args: { input: t.arg({ type: SetProviderCredentialsInput, required: true }) },
    resolve: (_root, args, ctx) => setProviderCredentials(ctx, args.input),
  }),
}));
