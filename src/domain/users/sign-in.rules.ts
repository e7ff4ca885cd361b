// How repeated failed sign-ins are slowed, then locked (pure; the service applies it). Counted
// per user, so guessing one person's password from many addresses is slowed as much as from
// one; the edge's per-address rate limits bound one address across many users.

/** Failures answered at once; each later one waits longer before its answer. */
export const FREE_FAILURES = 3;
/** The wait of the failure after the free ones; it doubles with each failure, up to MAX_DELAY_MS. */
export const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 4_000;
/** This many failures in a row lock the user's sign-in for LOCK_MS (a success resets the count). */
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_MS = 15 * 60_000;

/** How long to wait before answering a failed sign-in that made `failures` in a row. */
export function delayAfterFailure(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - FREE_FAILURES - 1));
}

/** The lock a failure sets: until when, or null while under the limit. */
export function lockAfterFailure(failures: number, now: Date): Date | null {
  return failures >= LOCK_AFTER_FAILURES ? new Date(now.getTime() + LOCK_MS) : null;
}

export const isLocked = (lockedUntil: Date, now: Date) => lockedUntil.getTime() > now.getTime();
