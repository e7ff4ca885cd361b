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

/**
 * The lower bounds (seconds) of the 64 buckets of the connected calls' duration histogram
 * (WorkflowDurationHour): 5 s wide below 2 minutes, 15 s below 5, 30 s below 10, 60 s below 20,
 * then 20, 25, 30, 40, 50, 60, 90 and 120 minutes and more. A percentile is answered as the lower
 * bound of its bucket. The backfill of the migration 20261204000000_workflow_results repeats them.
 */
export const DURATION_BUCKETS: readonly number[] = [
  ...Array.from({ length: 24 }, (_, i) => i * 5),
  ...Array.from({ length: 12 }, (_, i) => 120 + i * 15),
  ...Array.from({ length: 10 }, (_, i) => 300 + i * 30),
  ...Array.from({ length: 10 }, (_, i) => 600 + i * 60),
  1200,
  1500,
  1800,
  2400,
  3000,
  3600,
  5400,
  7200,
];

/** The 1-based bucket of a duration in DURATION_BUCKETS. */
export function durationBucket(seconds: number): number {
  let bucket = 1;
  for (let i = 1; i < DURATION_BUCKETS.length; i++) if (DURATION_BUCKETS[i] <= seconds) bucket = i + 1;
  return bucket;
}

/**
 * The p-quantile (0 < p ≤ 1) of a histogram over DURATION_BUCKETS, as percentile_disc would pick
 * it (the ceil(p·n)-th smallest), answered as its bucket's lower bound; null for no durations.
 */
export function histogramQuantile(counts: readonly number[], p: number): number | null {
  const n = counts.reduce((sum, c) => sum + c, 0);
  if (n === 0) return null;
  const rank = Math.max(1, Math.ceil(p * n));
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i];
    if (seen >= rank) return DURATION_BUCKETS[i];
  }
  return DURATION_BUCKETS[DURATION_BUCKETS.length - 1];
}

/** The agent key of the roll-ups: the zero UUID for a call without an agent. */
export const NO_AGENT = '00000000-0000-0000-0000-000000000000';
