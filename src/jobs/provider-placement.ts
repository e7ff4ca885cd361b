// Placing claimed calls with Vapi or Retell, and settling what each attempt came to. A claimed
// provider call is a Call row in status "placing" whose `placingSince` is a lease. Its outcome:
//   accepted     -> "queued" with the provider's call id; the provider's webhooks follow;
//   refused      -> ended at once with the result and end reason the adapter gives (an attempt);
//   retry_later  -> the row is removed and the enrollment is due again after the provider's
//                   delay: a rate limit or a concurrency refusal is not an attempt;
//   unknown      -> stays "placing" (with the provider's call id when its answer named one, as
//                   Vapi's concurrencyBlocked answer does: that call may still be dialled).
//                   reconcilePlacements, once its lease is old, asks the provider for a call with
//                   our call id before placing it again, so a call is placed once and never lost.
// A call the provider accepted, or named, and then refused for capacity before dialling it (a
// webhook says so: withdrawNotPlaced) is withdrawn at once: failed with the provider's
// reason, not an attempt, its enrollment due again DEFAULT_RETRY_LATER_MS later, as for a
// refusal answered to the create; nothing waits for the sweep of unreported calls.
// Secrets are decrypted per pass, for the calls at hand, and never logged.
import type { Services } from '../domain/context.js';
import { directSql } from '../db/sql-client.js';
import { credentialsFromStored, loadProviderCredentials } from '../domain/providers/provider-credentials.service.js';
import type { StoredProviderSecrets } from '../domain/providers/provider-credentials.store.js';
import { applyTelephonyEvent } from '../domain/calls/call-events.service.js';
import type {
  NotPlacedCall,
  PlaceCallOutcome,
  ProviderCallRequest,
  ProviderCredentials,
  RemoteVoiceProvider,
} from '../calls/telephony/voice-provider.port.js';
import { logger } from '../logger.js';
import { REPORT_GIVE_UP_MS } from './provider-report-recovery.js';
import { giveUpCall, withdrawNotPlacedCall } from './provider-report-recovery.store.js';
import {
  endPlacingLease,
  findPlacingCalls,
  forgetPlacingProviderCallId,
  leaseExpiredPlacements,
  recordAccepted,
  recordPlacingProviderCallId,
  removePlacingCall,
  type PlacingCallRow,
} from './provider-placement.store.js';

/** A placing call whose lease is older than this is looked up with its provider (and placed again if it has none). */
export const PLACING_LEASE_MS = 60_000;
/**
 * A retry_later without the provider's own delay waits this long, and so does a call the provider
 * refused for capacity after accepting it: a slot is likely free by then (our own caps hold the
 * calls back meanwhile), and a refusal costs no attempt, so retrying sooner only asks again.
 */
export const DEFAULT_RETRY_LATER_MS = 60_000;
/** Placing calls reconciled per pass. */
const RECONCILE_BATCH = 20;

type PlacementServices = Pick<Services, 'db' | 'clock' | 'voice'>;

/** A placing call with everything its provider request needs. */
export interface PlacingCall extends PlacingCallRow {
  /** The Account's encrypted credentials when the query that read the call read them too (the dialer's claim). */
  secrets?: StoredProviderSecrets | null;
}

/** The provider request for a placing call: our id, the numbers, and the contact's variables. */
function requestFor(services: PlacementServices, call: PlacingCall): ProviderCallRequest {
  const base = services.voice?.publicBaseUrl.replace(/\/+$/, '') ?? '';
  return {
    callId: call.callId,
    toNumber: call.phone,
    assistantId: call.providerAgentId ?? '',
    fromNumber: call.providerPhoneNumber ?? '',
    webhookUrl: `${base}/api/telephony/${call.provider}/${call.accountId}`,
    variables: {
      firstName: call.firstName,
      lastName: call.lastName,
      fullName: call.fullName,
      language: call.language,
      timezone: call.timezone,
      customFields: call.customFields ?? {},
    },
  };
}

/**
 * Decrypted credentials per Account and provider, once per pass: decrypted from the secrets the
 * call's own query read, else read.
 */
function credentialsCache(services: PlacementServices) {
  const cache = new Map<string, Promise<ProviderCredentials | null>>();
  return (call: Pick<PlacingCall, 'accountId' | 'provider' | 'secrets'>) => {
    const key = `${call.accountId}:${call.provider}`;
    let credentials = cache.get(key);
    if (!credentials) {
      const { secrets } = call;
      credentials = secrets
        ? Promise.resolve().then(() => credentialsFromStored(services, call.provider, secrets))
        : loadProviderCredentials(services, call.accountId, call.provider);
      cache.set(key, credentials);
    }
    return credentials;
  };
}

/**
 * Places freshly claimed provider calls (the dialer, after its claim commits), read with the
 * claim itself: no query between the commit and the provider's create.
 */
export async function placeProviderCalls(services: PlacementServices, calls: PlacingCall[]): Promise<void> {
  const credentialsOf = credentialsCache(services);
  for (const call of calls) {
    await attemptPlacement(services, call, credentialsOf).catch((error) =>
      logger.error({ err: error, callId: call.callId }, 'placing a provider call failed'),
    );
  }
}

async function attemptPlacement(
  services: PlacementServices,
  call: PlacingCall,
  credentialsOf: ReturnType<typeof credentialsCache>,
): Promise<void> {
  const adapter = services.voice?.adapters[call.provider];
  const credentials = await credentialsOf(call);
  if (!adapter || !credentials) {
    // The claim only takes agents whose Account has credentials; they were removed since.
    await settlePlacement(services, call, {
      kind: 'retry_later',
      reason: adapter ? 'no credentials' : 'provider not configured',
      retryAfterMs: null,
    });
    return;
  }
  const outcome = await adapter.placeCall(credentials, requestFor(services, call));
  await settlePlacement(services, call, outcome);
}

/** Records what one placement attempt came to (see the header). */
export async function settlePlacement(
  services: PlacementServices,
  call: Pick<PlacingCall, 'callId' | 'enrollmentId' | 'provider'>,
  outcome: PlaceCallOutcome,
): Promise<void> {
  const now = services.clock.now();
  const sql = directSql(services.db.sql);
  if (outcome.kind === 'accepted') {
    // A webhook may have come first (and moved the status on): only a placing call becomes queued.
    // A write lost in a crash (committed without waiting for the WAL flush) leaves the call
    // "placing": reconcilePlacements finds it at the provider by our call id and records it then.
    await recordAccepted(sql, call.callId, outcome.providerCallId);
  } else if (outcome.kind === 'refused') {
    await endPlacingLease(sql, call.callId);
    await applyTelephonyEvent(services, {
      type: 'call.ended',
      eventId: `${call.callId}:refused`,
      callId: call.callId,
      occurredAt: now.toISOString(),
      result: outcome.result,
      endReason: outcome.endReason.slice(0, 256),
      durationSeconds: 0,
      language: null,
      nextAttemptAt: null,
    });
  } else if (outcome.kind === 'retry_later') {
    const due = new Date(now.getTime() + (outcome.retryAfterMs ?? DEFAULT_RETRY_LATER_MS));
    logger.warn(
      { callId: call.callId, provider: call.provider, reason: outcome.reason },
      'provider asked to retry later; the attempt is not counted',
    );
    await services.db.sql.transaction((runner) => removePlacingCall(directSql(runner), call.callId, due));
  } else {
    // Kept with the provider's id when the answer named the call: the lookup (by our call id)
    // finds it either way, and a webhook withdrawing it must name that id (withdrawNotPlaced).
    if (outcome.providerCallId) await recordPlacingProviderCallId(sql, call.callId, outcome.providerCallId);
    logger.warn(
      { callId: call.callId, provider: call.provider, providerCallId: outcome.providerCallId, reason: outcome.reason },
      'the provider did not say whether it will dial the call; the call will be looked up before it is placed again',
    );
  }
}

/**
 * Withdraws a call the provider refused for capacity after accepting it (see the header): the
 * Account's call of that provider, recorded with the refused call's provider id, still open and
 * not in progress. Returns whether it was withdrawn (false: not ours, withdrawn before, or over).
 */
export async function withdrawNotPlaced(
  services: Pick<Services, 'db' | 'clock'>,
  source: { accountId: string; provider: RemoteVoiceProvider },
  notPlaced: NotPlacedCall,
): Promise<boolean> {
  const due = new Date(services.clock.now().getTime() + DEFAULT_RETRY_LATER_MS);
  const withdrawn = await services.db.sql.transaction((runner) =>
    withdrawNotPlacedCall(directSql(runner), due, {
      ...source,
      callId: notPlaced.callId,
      providerCallId: notPlaced.providerCallId,
      reason: notPlaced.reason.slice(0, 256),
    }),
  );
  if (withdrawn > 0)
    logger.warn(
      { callId: notPlaced.callId, provider: source.provider, reason: notPlaced.reason },
      'the provider refused the call for capacity before dialling it; the attempt is not counted',
    );
  return withdrawn > 0;
}

/**
 * Calls left "placing" (the provider's answer never came, or left open whether it will dial the
 * call) whose lease has run out: each is leased again, looked up with the provider by our call
 * id, and placed only if the provider has none. Several dialers never reconcile one call at once
 * (SKIP LOCKED, then the renewed lease).
 */
export async function reconcilePlacements(services: PlacementServices): Promise<number> {
  const now = services.clock.now();
  const expired = new Date(now.getTime() - PLACING_LEASE_MS);
  const leased = await services.db.sql.transaction((runner) =>
    leaseExpiredPlacements(directSql(runner), now, expired, RECONCILE_BATCH),
  );
  if (leased.length === 0) return 0;
  const credentialsOf = credentialsCache(services);
  for (const call of await findPlacingCalls(
    directSql(services.db.sql),
    leased.map((l) => l.id),
  )) {
    try {
      const adapter = services.voice?.adapters[call.provider];
      const credentials = await credentialsOf(call);
      if (!adapter || !credentials) {
        // The provider cannot be asked (credentials removed, provider no longer configured):
        // its webhooks cannot be authenticated either. Kept for as long as a report could still
        // come, then given up like any call without a report, so it stops holding a place under
        // the caps and the contact is called again.
        if (now.getTime() - call.placedAt.getTime() >= REPORT_GIVE_UP_MS) {
          await services.db.sql.transaction((runner) => giveUpCall(directSql(runner), now, call.callId));
        }
        continue;
      }
      const found = await adapter.findCall(credentials, {
        callId: call.callId,
        placedAt: call.placedAt,
        request: requestFor(services, call),
      });
      if (found) await settlePlacement(services, call, { kind: 'accepted', providerCallId: found.providerCallId });
      // None placed: the id of a call refused for capacity, if one was recorded, goes (the new
      // call's is recorded instead); a call a webhook withdrew meanwhile is not placed again here.
      else if (await forgetPlacingProviderCallId(directSql(services.db.sql), call.callId))
        await attemptPlacement(services, call, credentialsOf);
    } catch (error) {
      // The provider cannot be asked now: the lease runs out again and a later pass retries.
      logger.warn({ err: error, callId: call.callId }, 'reconciling a placing call failed; retrying later');
    }
  }
  return leased.length;
}
