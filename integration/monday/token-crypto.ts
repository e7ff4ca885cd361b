// Encryption at rest for monday access tokens: AES-256-GCM, a random 96-bit nonce per token,
// the key from configuration (32 bytes, base64). Stored as "v1.<nonce>.<tag>.<ciphertext>".
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export function parseTokenKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new Error('MONDAY_TOKEN_KEY must be 32 bytes, base64-encoded (e.g. `openssl rand -base64 32`)');
  return key;
}

export function encryptToken(token: string, key: Buffer): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const ciphertext = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return ['v1', nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** Throws when the value was not encrypted with this key (or was altered). */
export function decryptToken(stored: string, key: Buffer): string {
  const [version, nonce, tag, ciphertext] = stored.split('.');
  if (version !== 'v1' || !nonce || !tag || ciphertext === undefined) throw new Error('not an encrypted token');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
