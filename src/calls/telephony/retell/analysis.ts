// Retell's post-call analysis, as Contactline needs it defined on a Retell agent and read back.
//
// The agent's "Post-Call Analysis" (API: `post_call_analysis_data`) must define the three fields
// below, with these exact names; Retell returns their values in
// `call.call_analysis.custom_analysis_data[name]` on the `call_analyzed` webhook. They are typed
// with the SDK's own item types so that docs/calls-retell.md can paste them as they are.
// Results that only a conversation can tell (converted, qualified, callback_requested…) come
// from `contactline_outcome`; the rest of the mapping is in ./ended-reasons.ts.
import type { AgentCreateParams } from 'retell-sdk/resources/agent';
import type { CONVERSATION_RESULTS, CallResult } from '../telephony.port.js';

type AnalysisItem = NonNullable<AgentCreateParams['post_call_analysis_data']>[number];

export const OUTCOME_FIELD = 'contactline_outcome';
export const CALLBACK_AT_FIELD = 'contactline_callback_at';
export const LANGUAGE_FIELD = 'contactline_language';

/**
 * The outcome choices, each with the definition the analysis model reads: every conversation
 * result, plus voicemail and ivr for a machine Retell's own detection missed.
 */
export const OUTCOME_CHOICES = {
  converted: 'the contact agreed to the goal of the call (booked, bought, signed up)',
  qualified: 'the contact meets the qualification criteria and a follow-up is wanted',
  disqualified: 'the contact does not meet the criteria (not a fit)',
  contact_verified: 'the contact confirmed their identity or details',
  identified: 'the person who answered said who they are, but is not the contact or did not confirm',
  neutral_value_call: 'a courtesy or informational call with no decision to take',
  not_interested: 'the contact declined and is not interested',
  do_not_call: 'the person asked not to be called again',
  wrong_language: 'the conversation could not continue in a language the agent speaks',
  wrong_number: 'the number does not belong to the contact',
  human_busy: 'a person answered but could not talk now and gave no time to call back',
  callback_requested: 'the contact asked to be called back, at a time they gave or not',
  answered: 'a conversation took place with none of the outcomes above',
  voicemail: 'the call reached a voicemail or answering machine',
  ivr: 'the call reached an automated phone menu (IVR)',
} as const satisfies Partial<Record<CallResult, string>>;

export type AnalysisOutcome = keyof typeof OUTCOME_CHOICES;

// Every conversation result must be a choice, or the analysis could never give it.
const everyConversationResultIsAChoice: (typeof CONVERSATION_RESULTS)[number] extends AnalysisOutcome ? true : false =
  true;
void everyConversationResultIsAChoice;

/** The post-call analysis items a Retell agent needs for Contactline (paste as they are). */
export const CONTACTLINE_ANALYSIS_FIELDS: readonly AnalysisItem[] = [
  {
    type: 'enum',
    name: OUTCOME_FIELD,
    description:
      'The outcome of the call for Contactline. Choose exactly one: ' +
      Object.entries(OUTCOME_CHOICES)
        .map(([choice, meaning]) => `${choice} = ${meaning}`)
        .join('; ') +
      '.',
    choices: Object.keys(OUTCOME_CHOICES),
    // Not required: a required field Retell cannot extract marks the call unsuccessful in the
    // agent's own statistics; a missing outcome falls back to `answered` here anyway.
    required: false,
  },
  {
    type: 'string',
    name: CALLBACK_AT_FIELD,
    description:
      'Only when the contact asked to be called back at a given time: that time as an ISO 8601 date-time ' +
      "with the contact's UTC offset (for example 2026-11-24T10:00:00-05:00). Empty otherwise.",
    examples: ['2026-11-24T10:00:00-05:00'],
    required: false,
  },
  {
    type: 'string',
    name: LANGUAGE_FIELD,
    description:
      'The language the contact spoke, as a BCP 47 tag such as en-US, es-ES or fr-FR. Empty when the contact did not speak.',
    examples: ['en-US', 'es-MX'],
    required: false,
  },
];

/** What Contactline reads from a call's analysis. */
export interface ContactlineAnalysis {
  /** A known outcome choice, or null (absent, empty or not one of the choices). */
  outcome: AnalysisOutcome | null;
  /** The callback time as given (unchecked; see callbackTime), or null. */
  callbackAt: string | null;
  /** A BCP 47 language tag, or null. */
  language: string | null;
  /** Retell's own voicemail detection on the analysis (`call_analysis.in_voicemail`). */
  inVoicemail: boolean;
}

const BCP47 = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

function isOutcome(value: unknown): value is AnalysisOutcome {
  return typeof value === 'string' && Object.hasOwn(OUTCOME_CHOICES, value);
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Reads a call's analysis (`call_analysis`); missing or unusable fields read as null. */
export function readAnalysis(
  callAnalysis: { custom_analysis_data?: unknown; in_voicemail?: boolean } = {},
): ContactlineAnalysis {
  const data = callAnalysis.custom_analysis_data;
  const fields =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const outcome = nonEmptyString(fields[OUTCOME_FIELD]);
  const language = nonEmptyString(fields[LANGUAGE_FIELD]);
  return {
    outcome: isOutcome(outcome) ? outcome : null,
    callbackAt: nonEmptyString(fields[CALLBACK_AT_FIELD]),
    language: language && language.length <= 64 && BCP47.test(language) ? language : null,
    inVoicemail: callAnalysis.in_voicemail === true,
  };
}

/** How far ahead a requested callback is believed; later ones are likely misheard. */
export const MAX_CALLBACK_AHEAD_MS = 30 * 24 * 3600_000;

/** An ISO 8601 date-time with a date, a time and Z or an explicit offset (a bare local time is ambiguous). */
const DATE_TIME_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The requested callback time, when it is a date-time with an offset after the call ended and
 * at most 30 days later; otherwise null, so the agent's own retry delay applies.
 */
export function callbackTime(callbackAt: string | null, endedAt: Date): Date | null {
  if (!callbackAt || !DATE_TIME_WITH_OFFSET.test(callbackAt)) return null;
  const at = new Date(callbackAt);
  const ms = at.getTime();
  if (Number.isNaN(ms) || ms <= endedAt.getTime() || ms - endedAt.getTime() > MAX_CALLBACK_AHEAD_MS) return null;
  return at;
}
