// Clocks for test servers. A suite that dials cannot run on the real time: the calling rules
// place a call only inside the law's hours where the contact may be (it would fail at night, and
// on a Sunday in some states). A suite that moves time by hand (expiries) uses handClock.

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

/**
 * Noon in Los Angeles on today's date there (by this machine's clock): a California number is
 * inside every hours rule that binds it then, whatever the date.
 */
export function noonInLosAngeles(): Date {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
  const hourThere = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Los_Angeles', hour: '2-digit' });
  for (const utcHour of [19, 20]) {
    const at = new Date(`${day}T${utcHour}:00:00.000Z`);
    if (hourThere.format(at) === '12') return at;
  }
  throw new Error(`no noon in Los Angeles on ${day}`);
}

/** A clock the suite moves forward by hand, from the real time at its start (any date works). */
export function handClock(): { now(): Date; advance(ms: number): void } {
  let at = Date.now();
  return {
    now: () => new Date(at),
    advance(ms: number) {
      at += ms;
    },
  };
}
