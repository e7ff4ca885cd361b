// A Retell transcript as the port's utterances.
//
// `transcript_object[]` holds `{ role: agent | user | transfer_target, content, words[] }`;
// word times are seconds of audio from the call's start (approximate, per the SDK). An
// utterance's time is the call's start_timestamp plus its first word's start; the person a
// call was transferred to is not part of the agent's conversation and is left out.
import { MAX_UTTERANCE_CHARS, MAX_UTTERANCES, type Utterance } from '../telephony.port.js';
import type { RetellCall } from './retell-call.js';

type TranscriptEntry = NonNullable<RetellCall['transcript_object']>[number];

const SPEAKERS: Partial<Record<TranscriptEntry['role'], Utterance['speaker']>> = { agent: 'assistant', user: 'user' };

function firstWordOffsetMs(entry: TranscriptEntry): number {
  const start = entry.words?.[0]?.start;
  return typeof start === 'number' && Number.isFinite(start) && start >= 0 ? Math.round(start * 1000) : 0;
}

/** The utterances of a call, timed from `startMs` (the call's start, else the best time known). */
export function utterancesOf(transcript: readonly TranscriptEntry[] | undefined, startMs: number): Utterance[] {
  const utterances: Utterance[] = [];
  for (const entry of transcript ?? []) {
    const speaker = SPEAKERS[entry.role];
    if (!speaker || typeof entry.content !== 'string' || entry.content.trim() === '') continue;
    utterances.push({
      speaker,
      content: entry.content.slice(0, MAX_UTTERANCE_CHARS),
      timestamp: new Date(startMs + firstWordOffsetMs(entry)).toISOString(),
    });
    if (utterances.length === MAX_UTTERANCES) break;
  }
  return utterances;
}
