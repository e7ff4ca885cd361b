// The post-call analysis a Vapi assistant must define for Contactline, and how we read it.
//
// Vapi ended reasons only say how a call ended (busy, no answer, hung up…). What the contact
// said (converted, not interested, call me back at 10…) comes from Vapi's post-call analysis:
// a *structured output* named ANALYSIS_OUTPUT_NAME with the JSON Schema ANALYSIS_SCHEMA, linked
// to the assistant through `artifactPlan.structuredOutputIds`. Its result arrives in the
// end-of-call-report as `artifact.structuredOutputs[<output id>] = { name, result }`
// (docs.vapi.ai/assistants/structured-outputs). The legacy `analysisPlan.structuredDataSchema`
// with the same schema (result in `analysis.structuredData`) is read too, as a fallback.
//
// Values are checked, not trusted: an outcome outside the list, a callback time without an
// offset, or an odd language tag read as absent, and the ended reason's own rule decides.
import { z } from 'zod';
import type { CallResult } from '../telephony.port.js';

/** The structured output's name in Vapi (at most 40 characters). */
export const ANALYSIS_OUTPUT_NAME = 'contactline_call_outcome';

/** The outcomes the analysis may give, each with the definition the analysing model reads. */
export const ANALYSIS_OUTCOME_DEFINITIONS = {
  converted: 'The contact agreed to the goal of the call (booked, bought, signed up).',
  qualified: 'The contact meets the criteria the agent checks and is worth a follow-up, but did not convert yet.',
  disqualified: 'The contact does not meet the criteria (wrong profile, no need, not eligible).',
  contact_verified: 'The agent confirmed the contact details (identity, address, email) and nothing else was asked.',
  identified: 'The agent reached the intended person and confirmed who they are, with no further result.',
  neutral_value_call: 'A real conversation with no clear positive or negative result.',
  not_interested: 'The contact said they are not interested.',
  do_not_call: 'The contact asked not to be called again.',
  wrong_language: 'The contact could not continue in the language of the call.',
  wrong_number: 'The person who answered is not the intended contact and does not know them.',
  human_busy: 'A person answered but could not talk now and gave no time to call back.',
  callback_requested: 'The contact asked to be called back at a given time (fill callbackAt).',
  answered: 'The contact answered, and none of the other outcomes fits.',
  voicemail: 'A voicemail greeting or answering machine answered, not a person.',
  ivr: 'An automated phone menu (IVR) answered, not a person.',
} as const satisfies Partial<Record<CallResult, string>>;

export type AnalysisOutcome = keyof typeof ANALYSIS_OUTCOME_DEFINITIONS;
export const ANALYSIS_OUTCOMES = Object.keys(ANALYSIS_OUTCOME_DEFINITIONS) as AnalysisOutcome[];

/** The structured output's JSON Schema, as pasted into Vapi (docs/calls-vapi.md shows this exact object). */
export const ANALYSIS_SCHEMA = {
  type: 'object',
  properties: {
    outcome: {
      type: 'string',
      enum: ANALYSIS_OUTCOMES,
      description: `How the call ended for the contact. ${ANALYSIS_OUTCOMES.map((o) => `${o}: ${ANALYSIS_OUTCOME_DEFINITIONS[o]}`).join(' ')}`,
    },
    callbackAt: {
      type: 'string',
      description:
        "Only when outcome is callback_requested: the date and time the contact asked to be called back, as ISO 8601 with the UTC offset (e.g. 2026-11-23T10:00:00-05:00), in the contact's time zone, as the assistant confirmed it aloud. Empty when no time was agreed.",
    },
    language: {
      type: 'string',
      description: 'The language the contact spoke, as a BCP 47 tag such as en-US or es-ES.',
    },
  },
  required: ['outcome'],
} as const;

export interface CallAnalysis {
  outcome: AnalysisOutcome | null;
  /** ISO 8601 (normalized to UTC) of the requested callback, or null. */
  callbackAt: string | null;
  /** BCP 47 tag, or null. */
  language: string | null;
}

const NO_ANALYSIS: CallAnalysis = { outcome: null, callbackAt: null, language: null };
const outcomeSet: ReadonlySet<string> = new Set(ANALYSIS_OUTCOMES);
const isoWithOffset = z.iso.datetime({ offset: true });
const BCP47 = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Our structured output's result, else the legacy structuredData when it has an outcome. */
function analysisValues(structuredOutputs: unknown, structuredData: unknown): Record<string, unknown> | null {
  for (const output of Object.values(asRecord(structuredOutputs) ?? {})) {
    const entry = asRecord(output);
    if (entry?.name === ANALYSIS_OUTPUT_NAME) return asRecord(entry.result);
  }
  const legacy = asRecord(structuredData);
  return legacy && 'outcome' in legacy ? legacy : null;
}

function readOutcome(value: unknown): AnalysisOutcome | null {
  if (typeof value !== 'string') return null;
  const normalized = value.trim().toLowerCase();
  return outcomeSet.has(normalized) ? (normalized as AnalysisOutcome) : null;
}

function readCallbackAt(value: unknown): string | null {
  if (typeof value !== 'string' || !isoWithOffset.safeParse(value.trim()).success) return null;
  return new Date(value.trim()).toISOString();
}

function readLanguage(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const tag = value.trim();
  return tag.length <= 64 && BCP47.test(tag) ? tag : null;
}

/** Reads the analysis from an end-of-call-report's `artifact` and `analysis`. */
export function readCallAnalysis(report: {
  artifact?: { structuredOutputs?: unknown } | null;
  analysis?: { structuredData?: unknown } | null;
}): CallAnalysis {
  const values = analysisValues(report.artifact?.structuredOutputs, report.analysis?.structuredData);
  if (!values) return NO_ANALYSIS;
  return {
    outcome: readOutcome(values.outcome),
    callbackAt: readCallbackAt(values.callbackAt),
    language: readLanguage(values.language),
  };
}
