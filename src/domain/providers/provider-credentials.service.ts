// An Account's voice provider credentials (Vapi, Retell): its API key and webhook secret,
// encrypted at rest with PROVIDER_CREDENTIALS_KEY, set and rotated by the operator, never read
// back in full (only the key's last four characters). The dialer and the webhook route decrypt
// them for the request at hand (loadProviderCredentials).
import { z } from 'zod';
import type { RequestContext, Services } from '../context.js';
import { requireAdmin } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { decryptSecret, encryptSecret } from '../shared/secret-box.js';
import type { ProviderCredentials, RemoteVoiceProvider } from '../../calls/telephony/voice-provider.port.js';
import { directSql } from '../../db/sql-client.js';
import { findProviderSecrets, type StoredProviderSecrets } from './provider-credentials.store.js';

export const REMOTE_VOICE_PROVIDERS = ['vapi', 'retell'] as const satisfies readonly RemoteVoiceProvider[];

/** What an operator sees of stored credentials: never the secrets. */
export interface ProviderCredentialView {
  accountId: string;
  provider: RemoteVoiceProvider;
  apiKeyLastFour: string;
  webhookSecretSet: boolean;
  maxConcurrentCalls: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const SetProviderCredentialsSchema = z.strictObject({
  accountId: z.uuid(),
  provider: z.enum(REMOTE_VOICE_PROVIDERS),
  apiKey: z.string().trim().min(8).max(512),
  /** Vapi: the server URL credential's secret (required); Retell: the webhook key when it is not the API key. */
  webhookSecret: z.string().trim().min(8).max(512).nullable().optional(),
  maxConcurrentCalls: z.number().int().min(1).max(10_000).nullable().optional(),
});

const VIEW = {
  accountId: true,
  provider: true,
  apiKeyLastFour: true,
  webhookSecretEncrypted: true,
  maxConcurrentCalls: true,
  createdAt: true,
  updatedAt: true,
} as const;

function viewOf(row: {
  accountId: string;
  provider: string;
  apiKeyLastFour: string;
  webhookSecretEncrypted: string | null;
  maxConcurrentCalls: number | null;
  createdAt: Date;
  updatedAt: Date;
}): ProviderCredentialView {
  const { webhookSecretEncrypted, ...rest } = row;
  return { ...rest, provider: row.provider as RemoteVoiceProvider, webhookSecretSet: webhookSecretEncrypted !== null };
}

function requireKey(services: Pick<Services, 'voice'>): Buffer {
  const key = services.voice?.credentialsKey;
  if (!key)
    throw badRequest(
      'Voice provider credentials need PROVIDER_CREDENTIALS_KEY (32 bytes, base64) in the service configuration',
    );
  return key;
}

/**
 * Stores (or rotates) an Account's key for a provider. Vapi webhooks are authenticated with the
 * server URL credential's secret, so a Vapi key needs one; Retell signs with the API key that
 * carries the webhook badge (webhookSecret when it is another key).
 */
export async function setProviderCredentials(ctx: RequestContext, input: unknown): Promise<ProviderCredentialView> {
  requireAdmin(ctx);
  const data = parseInput(SetProviderCredentialsSchema, input);
  const key = requireKey(ctx);
  if (data.provider === 'vapi' && !data.webhookSecret)
    throw badRequest(
      'webhookSecret: Vapi webhooks are authenticated with the secret of the server URL credential; send it',
    );
  const account = await ctx.db.prisma.account.findUnique({ where: { id: data.accountId }, select: { id: true } });
  if (!account) throw notFound(`No account ${data.accountId}`);
  const now = ctx.clock.now();
  const secrets = {
    apiKeyEncrypted: encryptSecret(data.apiKey, key),
    apiKeyLastFour: data.apiKey.slice(-4),
    webhookSecretEncrypted: data.webhookSecret ? encryptSecret(data.webhookSecret, key) : null,
    ...(data.maxConcurrentCalls !== undefined ? { maxConcurrentCalls: data.maxConcurrentCalls } : {}),
    updatedAt: now,
  };
  const row = await ctx.db.prisma.providerCredential.upsert({
    where: { accountId_provider: { accountId: data.accountId, provider: data.provider } },
    create: { accountId: data.accountId, provider: data.provider, ...secrets, createdAt: now },
    update: secrets,
    select: VIEW,
  });
  return viewOf(row);
}

export async function listProviderCredentials(
  ctx: RequestContext,
  accountId: string,
): Promise<ProviderCredentialView[]> {
  requireAdmin(ctx);
  const rows = await ctx.db.prisma.providerCredential.findMany({
    where: { accountId },
    orderBy: { provider: 'asc' },
    select: VIEW,
  });
  return rows.map(viewOf);
}

export async function removeProviderCredentials(
  ctx: RequestContext,
  accountId: string,
  provider: string,
): Promise<boolean> {
  requireAdmin(ctx);
  // Checked here: a value outside the enum would otherwise reach the database as an error.
  if (!(REMOTE_VOICE_PROVIDERS as readonly string[]).includes(provider))
    throw badRequest(`provider must be one of ${REMOTE_VOICE_PROVIDERS.join(', ')}`);
  const { count } = await ctx.db.prisma.providerCredential.deleteMany({
    where: { accountId, provider: provider as RemoteVoiceProvider },
  });
  return count > 0;
}

/** Decrypts secrets read with another query (the dialer's claim reads them with the calls it claims). */
export function credentialsFromStored(
  services: Pick<Services, 'voice'>,
  provider: RemoteVoiceProvider,
  stored: StoredProviderSecrets,
): ProviderCredentials {
  const key = requireKey(services);
  return {
    apiKey: decryptSecret(stored.apiKeyEncrypted, key),
    webhookSecret: stored.webhookSecretEncrypted ? decryptSecret(stored.webhookSecretEncrypted, key) : null,
    baseUrl: services.voice?.apiUrls[provider],
  };
}

/**
 * The Account's decrypted credentials for a provider, or null when it stored none. Read on the
 * driver (provider-credentials.store.ts): every provider webhook and every dialer pass reads them.
 */
export async function loadProviderCredentials(
  services: Pick<Services, 'db' | 'voice'>,
  accountId: string,
  provider: RemoteVoiceProvider,
): Promise<ProviderCredentials | null> {
  const row = await findProviderSecrets(directSql(services.db.sql), accountId, provider);
  return row ? credentialsFromStored(services, provider, row) : null;
}
