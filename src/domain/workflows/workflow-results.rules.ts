// Which call results count as what in a workflow's results (GET /api/v1/workflows/{id}/results),
// from the classifications the calls engine already uses: a call is connected when a person
// picked up and talked with the agent (CONVERSATION_RESULTS, the calls with a transcript), and
// it reached its contact when its result moves the contact to `reached` or beyond
// (RESULT_STATUS, call-outcome.rules.ts).
import { CALL_RESULTS, isConversationResult, type CallResult } from '../../calls/telephony/telephony.port.js';
import { RESULT_STATUS, SERVICE_STATUS_ORDER } from '../calls/call-outcome.rules.js';

/** Results of a connected call: a person talked with the agent (human_busy and wrong_number included). */
export const CONNECTED_RESULTS: readonly CallResult[] = CALL_RESULTS.filter((result) => isConversationResult(result));

const REACHED_RANK = SERVICE_STATUS_ORDER.indexOf('reached');

/** Results that reached the contact: its status moves to reached, disqualified, qualified, converted or dnc. */
export const REACHED_RESULTS: readonly CallResult[] = CALL_RESULTS.filter(
  (result) => SERVICE_STATUS_ORDER.indexOf(RESULT_STATUS[result]) >= REACHED_RANK,
);

/** The result of a conversion (the conversion rate's and attempts per conversion's numerator). */
export const CONVERTED_RESULT: CallResult = 'converted';

/** A rate, or null when its denominator is zero. */
export function rate(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}
