import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/domain/users/password-hash.js';
import { assertHashingRoom, HashingBusy } from '../../src/domain/users/hashing-lane.js';
import { fillHashingLane } from '../support/hashing-lane.js';
import { delayAfterFailure, lockAfterFailure } from '../../src/domain/users/sign-in.rules.js';

describe('console passwords (scrypt)', () => {
  it('verifies the password it hashed, and nothing else', async () => {
    const stored = await hashPassword('a long enough passphrase');
    expect(stored.split('$')).toHaveLength(6);
    expect(await verifyPassword('a long enough passphrase', stored)).toBe(true);
    expect(await verifyPassword('a long enough passphrasE', stored)).toBe(false);
    expect(await verifyPassword('a long enough passphrase', 'plain text')).toBe(false);
  });

  it('salts each hash: one password, two different hashes', async () => {
    expect(await hashPassword('same password here')).not.toBe(await hashPassword('same password here'));
  });

  it('treats the composed and decomposed forms of an accented password as one (NFC)', async () => {
    const stored = await hashPassword('caf\u00e9 au lait, noir');
    expect(await verifyPassword('cafe\u0301 au lait, noir', stored)).toBe(true);
  });
});

describe('the hashing lane', () => {
  it('refuses at once past its queue, then hashes again once there is room', async () => {
    const filling = fillHashingLane();
    try {
      expect(() => assertHashingRoom()).toThrow(HashingBusy);
      const refused = await hashPassword('one too many').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(HashingBusy);
      expect(refused).toMatchObject({ code: 'unavailable', status: 503 });
      expect((refused as HashingBusy).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    } finally {
      await filling;
    }
    expect(() => assertHashingRoom()).not.toThrow();
    expect(await verifyPassword('after', await hashPassword('after'))).toBe(true);
  });

  it.runIf(process.platform === 'linux')('hashes on a thread of its own, at the lowest CPU priority', async () => {
    await hashPassword('a password');
    const niceness = Object.fromEntries(
      fs.readdirSync('/proc/self/task').map((tid) => {
        // The fields after the command's closing parenthesis: state is field 3, nice field 19.
        const fields = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
        return [tid, Number(fields[16])];
      }),
    );
    expect(Object.values(niceness)).toContain(19);
    // The process itself (its main thread) keeps its priority.
    expect(niceness[process.pid]).toBe(0);
  });
});

describe('sign-in slowing and lockout', () => {
  it('answers three failures at once, then waits twice as long each time, up to 4 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map(delayAfterFailure)).toEqual([
      0, 0, 0, 250, 500, 1000, 2000, 4000, 4000, 4000,
    ]);
  });

  it('locks for 15 minutes at the tenth failure in a row', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(lockAfterFailure(9, now)).toBeNull();
    expect(lockAfterFailure(10, now)).toEqual(new Date('2026-01-01T00:15:00Z'));
  });
});
