// Encryption at rest for secrets the service must use again (a monday access token, a voice
// provider's API key): AES-256-GCM, a random 96-bit nonce per value, a 32-byte key from
// configuration. Stored as "v1.<nonce>.<tag>.<ciphertext>" (base64url parts).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The key in `variable` (32 bytes, base64), or a start-up error naming the variable. */
export function parseSecretKey(base64: string, variable: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32)
    throw new Error(`${variable} must be 32 bytes, base64-encoded (e.g. \`openssl rand -base64 32\`)`);
  return key;
}

export function encryptSecret(secret: string, key: Buffer): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [
    'v1',
    nonce.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ciphertext.toString('base64url'),
  ].join('.');
}

/** Throws when the value was not encrypted with this key (or was altered). */
export function decryptSecret(stored: string, key: Buffer): string {
  const [version, nonce, tag, ciphertext] = stored.split('.');
  if (version !== 'v1' || !nonce || !tag || ciphertext === undefined) throw new Error('not an encrypted secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
