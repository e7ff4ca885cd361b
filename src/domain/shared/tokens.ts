// Secrets handed to a client once (API keys, invitation links, session cookies) are stored only
// as their SHA-256: a database leak reveals none of them. They are 32 random bytes or more, so
// a plain hash (no salt, no stretching) cannot be reversed by guessing.
import { createHash, randomBytes } from 'node:crypto';

export const sha256Hex = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** 32 random bytes, base64url (43 characters): for links and cookies. */
export const randomToken = () => randomBytes(32).toString('base64url');
