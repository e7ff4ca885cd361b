// The Retell call object as the SDK types it, and the few facts about it every other module of
// the adapter reads the same way: our call id in its metadata, whether it connected, its times.
import type { PhoneCallResponse, WebCallResponse } from 'retell-sdk/resources/call';

/** A call as Retell returns it (create, get, list) and sends it in webhooks (`{ event, call }`). */
export type RetellCall = PhoneCallResponse | WebCallResponse;

/** Every disconnection reason of the SDK (its own union type is the list). */
export type RetellDisconnectionReason = NonNullable<PhoneCallResponse['disconnection_reason']>;

/**
 * The metadata key that carries our call id. Retell returns `metadata` on the call object and
 * in every webhook of that call, and its list endpoint filters on a top-level metadata key.
 */
export const CALL_ID_METADATA_KEY = 'contactline_call_id';

/** Our call id from the call's metadata, or null when the call carries none (inbound, made elsewhere). */
export function ourCallIdOf(call: Pick<RetellCall, 'metadata'>): string | null {
  const metadata = call.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return null;
  const value = (metadata as Record<string, unknown>)[CALL_ID_METADATA_KEY];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/**
 * Whether a person (or a machine) picked up: Retell gives `call_status: "ended"` to connected
 * calls and `not_connected` or `error` to the others (docs, "Debug call disconnection").
 */
export function connected(call: Pick<RetellCall, 'call_status'>): boolean {
  return call.call_status === 'ended' || call.call_status === 'ongoing';
}

/** Epoch milliseconds as ISO 8601, or null when absent or not a finite number. */
export function isoFromEpochMs(ms: number | undefined | null): string | null {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
