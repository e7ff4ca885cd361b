// Working hours that are always open, for tests whose subject is not calling hours.
import { WEEKDAYS, type WorkingHours } from '../../src/domain/calls/calling-hours.rules.js';

export const ALWAYS_OPEN: WorkingHours = Object.fromEntries(
  WEEKDAYS.map((day) => [day, [{ start: '00:00', end: '24:00' }]]),
) as WorkingHours;
