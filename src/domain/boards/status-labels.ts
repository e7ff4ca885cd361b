// Call result → board status label, for the set-status action. Each Account may replace the mapping;
// a result mapped to nothing leaves the item's status unchanged.
import { CALL_RESULTS, type CallResult } from '../../calls/telephony/telephony.port.js';

export type StatusLabelMapping = Partial<Record<CallResult, string | null>>;

/** The default mapping (the table in docs/board-app.md, "Map the board"), until an Account sets its own. */
export const DEFAULT_STATUS_LABELS: Readonly<Record<CallResult, string | null>> = {
  converted: 'Booked',
  disqualified: 'Unqualified',
  wrong_language: 'Unqualified',
  not_interested: 'Not interested',
  do_not_call: 'Not interested',
  answered: 'Answered',
  contact_verified: 'Answered',
  identified: 'Answered',
  qualified: 'Answered',
  callback_requested: 'Answered',
  neutral_value_call: 'Answered',
  busy: 'Busy',
  human_busy: 'Busy',
  no_answer: null,
  voicemail: null,
  ivr: null,
  invalid_number: null,
  wrong_number: null,
  carrier_blocked: null,
  unknown: null,
  new: null,
};

/** The label for a result under the Account's mapping (its entries override the default's). */
export function labelForResult(result: CallResult, mapping: StatusLabelMapping | null | undefined): string | null {
  if (mapping && Object.hasOwn(mapping, result)) return mapping[result] ?? null;
  return DEFAULT_STATUS_LABELS[result];
}

/** Keeps only known results with a label (1–255 characters) or null; anything else is a message. */
export function validateStatusLabelMapping(
  input: unknown,
): { ok: true; mapping: StatusLabelMapping } | { ok: false; message: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { ok: false, message: 'the mapping must be an object of call result → label (or null)' };
  const mapping: StatusLabelMapping = {};
  for (const [key, value] of Object.entries(input)) {
    if (!(CALL_RESULTS as readonly string[]).includes(key))
      return { ok: false, message: `"${key}" is not a call result (${CALL_RESULTS.join(', ')})` };
    if (value !== null && (typeof value !== 'string' || value.trim() === '' || value.length > 255))
      return { ok: false, message: `the label for ${key} must be 1 to 255 characters, or null` };
    mapping[key as CallResult] = value === null ? null : value.trim();
  }
  return { ok: true, mapping };
}
