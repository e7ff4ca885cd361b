// The keys this process has authenticated, kept in memory so that a keyed request does not
// pay a database round trip to look its key up again. The rule it keeps: a key revoked (or its
// Account's contact rules changed) on any process is refused (or read anew) on its next request
// here. The database notifies every change that could alter a lookup's answer (a trigger on
// ApiKey and Account, channel `contactline_auth`); this process listens (src/db/change-notices.ts)
// and answers from memory only while it is listening and no notice has come since the entry was
// read. A lookup that finds no key is not kept: a key created elsewhere works at once.
import { performance } from 'node:perf_hooks';
import type { ChangeNotices } from '../../db/change-notices.js';
import type { ActiveKeyRow } from './api-keys.store.js';

/** The channel the ApiKey and Account triggers notify (prisma/migrations/…_auth_change_notices). */
export const AUTH_CHANNEL = 'contactline_auth';

export interface ActiveKeyCache {
  /** The key with this secret hash: from memory when it may be, else from `load` (and kept if found). */
  find(secretHash: string, load: () => Promise<ActiveKeyRow | null>): Promise<ActiveKeyRow | null>;
  /**
   * Runs a write that changes what a lookup answers (a revocation, an Account's rules), and
   * resolves only once every listening process has confirmed hearing the database's notice of
   * it: the writer's answer is sent after every process knows, so the next request anywhere
   * sees the change.
   */
  changing<T>(write: () => Promise<T>): Promise<T>;
}

/** How long a writer waits at most for every process to confirm its change (one may be hung or cut off). */
const NOTICE_WAIT_MS = 2000;

export interface ActiveKeyCacheOptions {
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
  /** A safety net under the notices: an entry older than this is read again (ms, on a monotonic timer). */
  maxAgeMs?: number;
}

interface Entry {
  row: ActiveKeyRow;
  generation: number;
  readAt: number;
}

export function activeKeyCache(
  notices: ChangeNotices,
  { maxEntries = 10_000, maxAgeMs = 60_000 }: ActiveKeyCacheOptions = {},
): ActiveKeyCache {
  const entries = new Map<string, Entry>();
  return {
    async find(secretHash, load) {
      const generation = notices.generation();
      if (notices.live()) {
        const entry = entries.get(secretHash);
        if (entry && entry.generation === generation && performance.now() - entry.readAt < maxAgeMs) return entry.row;
        if (entry) entries.delete(secretHash);
      }
      const row = await load();
      // Kept only if no notice came while it was read, and notices are being received.
      if (row && notices.live() && notices.generation() === generation) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(secretHash, { row, generation, readAt: performance.now() });
      }
      return row;
    },
    async changing(write) {
      const before = notices.generation();
      const result = await write();
      if (notices.live()) await notices.heardEverywhere(before, NOTICE_WAIT_MS);
      return result;
    },
  };
}
