// Fills the process's password-hashing lane (src/domain/users/hashing-lane.ts) for a test: one
// check running that costs eight ordinary hashes (a stored value with p = 24 instead of 3), and
// the queue behind it of cheap ones (N = 2^10), so the lane stays full for as long as that one
// runs and is free again soon after. Resolves once they are all done.
import { HASHING_CONCURRENCY, HASHING_QUEUE } from '../../src/domain/users/hashing-lane.js';
import { verifyPassword } from '../../src/domain/users/password-hash.js';

const SALT = 'c2FsdHNhbHRzYWx0c2FsdA';
const LONG = `scrypt$15$8$24$${SALT}$AAAA`;
const CHEAP = `scrypt$10$8$1$${SALT}$AAAA`;

export function fillHashingLane(): Promise<unknown> {
  const checks = [
    ...Array.from({ length: HASHING_CONCURRENCY }, () => verifyPassword('filler', LONG)),
    ...Array.from({ length: HASHING_QUEUE }, () => verifyPassword('filler', CHEAP)),
  ];
  return Promise.all(checks);
}
