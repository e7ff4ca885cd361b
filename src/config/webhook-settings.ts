// The webhook settings the service runs with: the key of endpoint secrets at rest, and whether
// plain http to loopback receivers is allowed. Without WEBHOOK_SECRETS_KEY, the embedded
// database (a single machine's data directory) keeps a key of its own next to its data, made
// once, readable by its owner only, so `npm start` has webhooks with nothing to configure; an
// in-memory database gets a key for the life of the process (its data dies with it). On
// PostgreSQL the key must be configured: each process must hold the same one.
import { randomBytes } from 'node:crypto';
import { promises as dns } from 'node:dns';
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from './env.js';
import type { HostLookup, WebhookSettings } from '../domain/context.js';
import { parseSecretKey } from '../domain/shared/secret-box.js';

export const KEY_FILE = 'webhook-secrets.key';

/** The system's resolver: every address of the name. */
export const systemLookup: HostLookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export function webhookSettingsFrom(
  env: Partial<Pick<Env, 'WEBHOOK_SECRETS_KEY' | 'WEBHOOKS_ALLOW_HTTP_LOOPBACK' | 'DATA_DIR'>>,
  database: { kind: 'pglite' | 'postgres'; inMemory: boolean },
): WebhookSettings {
  return {
    secretsKey: secretsKey(env, database),
    allowHttpLoopback: env.WEBHOOKS_ALLOW_HTTP_LOOPBACK ?? false,
    lookup: systemLookup,
  };
}

function secretsKey(
  env: Partial<Pick<Env, 'WEBHOOK_SECRETS_KEY' | 'DATA_DIR'>>,
  database: { kind: 'pglite' | 'postgres'; inMemory: boolean },
): Buffer | null {
  if (env.WEBHOOK_SECRETS_KEY) return parseSecretKey(env.WEBHOOK_SECRETS_KEY, 'WEBHOOK_SECRETS_KEY');
  if (database.kind !== 'pglite') return null;
  if (database.inMemory || !env.DATA_DIR) return randomBytes(32);
  const file = path.join(env.DATA_DIR, KEY_FILE);
  try {
    return parseSecretKey(fs.readFileSync(file, 'utf8').trim(), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(env.DATA_DIR, { recursive: true });
  const key = randomBytes(32);
  // wx: never overwrite a key another process wrote meanwhile (its secrets would be lost).
  try {
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return parseSecretKey(fs.readFileSync(file, 'utf8').trim(), file);
  }
}
