// Console passwords, hashed with scrypt from node:crypto (memory-hard; no native add-on to
// build). Stored as `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url), so the cost can be
// raised later and old hashes still verify with the parameters they were made with.
//
// Every hash runs on the process's hashing lane (hashing-lane.ts), bounded and off the event loop.
import { randomBytes, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { scryptInLane } from './hashing-lane.js';

// N = 2^15, r = 8, p = 3: one of OWASP's equivalent scrypt minimums (with N = 2^17, p = 1), at
// 32 MiB of memory per hash instead of 128, so concurrent sign-ins do not balloon the process.
const LOG2_N = 15;
const R = 8;
const P = 3;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** log2N;
  // Node refuses more than 32 MiB by default; allow what these parameters need, with room.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return scryptInLane(password.normalize('NFC'), salt, KEY_LENGTH, options);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, LOG2_N, R, P);
  return ['scrypt', LOG2_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** False for a wrong password and for a stored value this module did not write. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, log2N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(log2N), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a password nobody has, verified when the email is unknown so both answers take as long. */
let decoy: Promise<string> | undefined;
export const decoyHash = () => {
  // A first hash refused by a full lane is tried again by the next sign-in, not kept as failed.
  decoy ??= hashPassword(randomBytes(16).toString('hex')).catch((error: unknown) => {
    decoy = undefined;
    throw error;
  });
  return decoy;
};
