// The result of an ended Vapi call: the ended reason's rule (./ended-reasons.ts), refined by the
// post-call analysis (./analysis.ts) only where the rule lets it; none for a call refused for
// capacity before dialling (not_placed: it is withdrawn, not ended).
import type { CallResult } from '../telephony.port.js';
import type { CallAnalysis } from './analysis.js';
import { ruleForEndedReason, type EndedReasonRule } from './ended-reasons.js';

/** A requested callback further away than this is not trusted (misheard dates, "next year"). */
export const MAX_CALLBACK_DAYS = 30;

export interface EndedCallFacts {
  endedReason: string;
  /** Vapi set `startedAt`: the call was put through. */
  started: boolean;
  /** The transcript has at least one utterance of the contact. */
  contactSpoke: boolean;
  analysis: CallAnalysis;
  endedAt: Date;
}

export type EndedCallOutcome =
  | {
      kind: 'ended';
      result: CallResult;
      /** The requested callback time for callback_requested, when it is in the next MAX_CALLBACK_DAYS. */
      nextAttemptAt: string | null;
      rule: EndedReasonRule;
    }
  /** Refused for capacity before dialling: no result, the call is withdrawn (not an attempt). */
  | { kind: 'not_placed'; rule: EndedReasonRule };

/** A conversation: what the analysis says, else `answered` when the contact spoke, else `unknown`. */
function conversationResult(facts: EndedCallFacts): CallResult {
  return facts.analysis.outcome ?? (facts.contactSpoke ? 'answered' : 'unknown');
}

function decide(rule: EndedReasonRule, facts: EndedCallFacts): CallResult | null {
  const decides = rule.decides;
  switch (decides.kind) {
    case 'not_placed':
      return null;
    case 'fixed':
      return decides.result;
    case 'conversation':
      return conversationResult(facts);
    case 'error':
      return facts.contactSpoke ? conversationResult(facts) : 'unknown';
    case 'cancelled':
      return facts.started ? conversationResult(facts) : 'new';
  }
}

function callbackTime(facts: EndedCallFacts): string | null {
  if (!facts.analysis.callbackAt) return null;
  const at = new Date(facts.analysis.callbackAt).getTime();
  const from = facts.endedAt.getTime();
  return at > from && at <= from + MAX_CALLBACK_DAYS * 86_400_000 ? facts.analysis.callbackAt : null;
}

export function resultForEndedCall(facts: EndedCallFacts): EndedCallOutcome {
  const rule = ruleForEndedReason(facts.endedReason);
  const result = decide(rule, facts);
  if (result === null) return { kind: 'not_placed', rule };
  return { kind: 'ended', result, rule, nextAttemptAt: result === 'callback_requested' ? callbackTime(facts) : null };
}
