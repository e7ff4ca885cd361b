// Time is injected so tests (and the dialer, later) control it.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
