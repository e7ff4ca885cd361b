// Clocks for test servers whose tests dial: the calling rules place a call only inside the law's
// hours where the contact may be, so a suite that dials cannot run on the real time (it would
// fail at night, and on a Sunday in some states).

/**
 * A clock that starts at `start` and then moves with the real time: for suites that dial once
 * but otherwise need time to pass as it does (sessions, lockouts, retries waited out for real).
 */
export function clockFrom(start: Date): { now(): Date } {
  const realStart = Date.now();
  return {
    now() {
      return new Date(start.getTime() + (Date.now() - realStart));
    },
  };
}
