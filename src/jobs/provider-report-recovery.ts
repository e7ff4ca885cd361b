// Calls whose final report never came. The dialer's sweep (recoverUnreportedCalls in
// ./dialer.ts) finds open calls past its cut-offs; a Vapi or Retell call that has the provider's
// call id is not given up blindly (its contact may have been called, and its result and
// transcript are at the provider): the provider is asked for the call (fetchCallState), and
//   ended      -> the events its final webhook would have carried are applied, as that webhook
//                 would have been (same event ids: a webhook that comes later is a duplicate);
//   in_flight  -> left as it is, and asked again REPORT_ASK_AGAIN_MS later;
//   not_found  -> given up: failed with `no_provider_report`, its enrollment due again (the
//                 provider never dialled it, so calling the contact now is the first call);
//   no answer  -> (provider unreachable, 5xx, credentials removed or unusable) left, asked again
//                 later; the other calls of that Account's provider wait for the next pass.
// Whatever the answer, a call that nothing settled REPORT_GIVE_UP_MS after it was placed is given
// up the same way, so that no call stays in flight for ever and holds a place under the caps.
// Other calls (the simulator's, a provider call without the provider's id) are given up at the
// cut-offs, as before (giveUpCalls).
//
// Several dialers on one database never ask about one call at once: a call is leased by setting
// "reportAskedAt" to the clock's time in one statement over rows locked FOR UPDATE SKIP LOCKED,
// and only calls whose lease is REPORT_ASK_AGAIN_MS old or older are leased (a call past the
// ceiling is given up at the first pass that leases it). A pass leases at most
// RECOVERY_BATCH calls and asks the provider after the lease commits. Secrets are decrypted per
// pass, for the calls at hand, and never logged.
import type { Services } from '../domain/context.js';
import { directSql } from '../db/sql-client.js';
import { loadProviderCredentials } from '../domain/providers/provider-credentials.service.js';
import { applyTelephonyEvents } from '../domain/calls/call-events.service.js';
import type {
  ProviderCallState,
  ProviderCredentials,
  RemoteVoiceProvider,
} from '../calls/telephony/voice-provider.port.js';
import { logger } from '../logger.js';
import {
  giveUpCall,
  leaseUnreportedCalls,
  returnLeases,
  type LeasedCall,
  type UnreportedCutoffs,
} from './provider-report-recovery.store.js';

/** A call still in flight at its provider (or one the provider could not be asked about) is asked again this long after. */
export const REPORT_ASK_AGAIN_MS = 5 * 60_000;
/**
 * A call that nothing settled this long after it was placed is given up (failed, its enrollment
 * due again), whatever its provider says or fails to say: no provider keeps a call going for a
 * day (Vapi's longest call is 12 hours, Retell's shorter), so by then a call the provider still
 * calls in flight, or that it cannot be asked about, only holds a place under the caps.
 */
export const REPORT_GIVE_UP_MS = 24 * 3600_000;
/** Calls leased (and asked about) per pass. */
export const RECOVERY_BATCH = 20;

type RecoveryServices = Pick<Services, 'db' | 'clock' | 'voice'>;

/** What one pass came to, per call leased. */
export interface ReportRecovery {
  /** Calls leased in this pass. */
  leased: number;
  /** Ended with the provider's own report. */
  recovered: number;
  /** Given up: the provider has no such call, or REPORT_GIVE_UP_MS passed. */
  givenUp: number;
  /** Left in flight, asked again later (in flight at the provider, or it could not be asked). */
  left: number;
}

/** What asking the provider came to: its answer, or why it could not be asked. */
type Answer = ProviderCallState | { kind: 'no_answer'; reason: unknown };

/**
 * One pass over provider calls past the cut-offs whose lease ran out (see the header). Returns
 * what it came to; never throws for one call's sake (a failure is logged and asked again later).
 */
export async function recoverProviderReports(
  services: RecoveryServices,
  cutoffs: UnreportedCutoffs,
): Promise<ReportRecovery> {
  const now = services.clock.now();
  const leaseExpired = new Date(now.getTime() - REPORT_ASK_AGAIN_MS);
  const leased = await leaseUnreportedCalls(directSql(services.db.sql), now, cutoffs, leaseExpired, RECOVERY_BATCH);
  const outcome: ReportRecovery = { leased: leased.length, recovered: 0, givenUp: 0, left: 0 };
  if (leased.length === 0) return outcome;

  const credentialsOf = credentialsCache(services);
  /** Account and provider pairs that gave no answer in this pass: their other calls are not asked now. */
  const silent = new Set<string>();
  const notAsked: LeasedCall[] = [];
  for (const call of leased) {
    const key = `${call.accountId}:${call.provider}`;
    const pastCeiling = now.getTime() - new Date(call.placedAt).getTime() >= REPORT_GIVE_UP_MS;
    if (silent.has(key) && !pastCeiling) {
      notAsked.push(call);
      continue;
    }
    const answer = silent.has(key)
      ? { kind: 'no_answer' as const, reason: 'the provider gave no answer earlier in this pass' }
      : await ask(services, call, credentialsOf, now);
    if (answer.kind === 'no_answer') silent.add(key);
    const settled = await settle(services, call, answer, now, pastCeiling).catch((error) => {
      logger.error(
        { err: error, callId: call.callId },
        'settling a call without its provider report failed; asking again later',
      );
      return 'left' as const;
    });
    outcome[settled] += 1;
  }
  if (notAsked.length > 0) {
    // Their turn comes first next pass: the lease they had before this one is given back.
    await returnLeases(directSql(services.db.sql), notAsked, now);
    outcome.left += notAsked.length;
  }
  return outcome;
}

/** Asks the call's provider for its state; `no_answer` when it cannot be asked now. */
async function ask(
  services: RecoveryServices,
  call: LeasedCall,
  credentialsOf: ReturnType<typeof credentialsCache>,
  now: Date,
): Promise<Answer> {
  try {
    const adapter = services.voice?.adapters[call.provider];
    if (!adapter) return { kind: 'no_answer', reason: `${call.provider} is not configured in this process` };
    const credentials = await credentialsOf(call.accountId, call.provider);
    if (!credentials) return { kind: 'no_answer', reason: `the Account has no ${call.provider} credentials` };
    return await adapter.fetchCallState(credentials, { callId: call.callId, providerCallId: call.providerCallId }, now);
  } catch (error) {
    return { kind: 'no_answer', reason: error };
  }
}

/** Acts on the answer (see the header); returns which count the call goes to. */
async function settle(
  services: RecoveryServices,
  call: LeasedCall,
  answer: Answer,
  now: Date,
  pastCeiling: boolean,
): Promise<'recovered' | 'givenUp' | 'left'> {
  const log = { callId: call.callId, provider: call.provider, providerCallId: call.providerCallId };
  if (answer.kind === 'ended') {
    try {
      await applyTelephonyEvents(services, answer.events, { accountId: call.accountId, provider: call.provider });
      logger.info(log, 'applied the report of a call whose final webhook never came, as the provider has it');
      return 'recovered';
    } catch (error) {
      logger.error({ ...log, err: error }, "applying the provider's report of a call failed; asking again later");
      if (!pastCeiling) return 'left';
    }
  }
  if (answer.kind === 'not_found' || pastCeiling) {
    const given = await services.db.sql.transaction((runner) => giveUpCall(directSql(runner), now, call.callId));
    if (given > 0) {
      const why =
        answer.kind === 'not_found'
          ? 'the provider has no such call'
          : `nothing settled it ${REPORT_GIVE_UP_MS / 3600_000} h after it was placed (last answer: ${answer.kind})`;
      logger.warn(
        { ...log, err: answer.kind === 'no_answer' ? answer.reason : undefined },
        `gave up a call without its provider report: ${why}`,
      );
    }
    return 'givenUp';
  }
  if (answer.kind === 'no_answer')
    logger.warn(
      { ...log, err: answer.reason },
      'could not ask the provider about a call without its report; asking again later',
    );
  return 'left';
}

/** Decrypted credentials per Account and provider, read once per pass (null: none, or unusable). */
function credentialsCache(services: RecoveryServices) {
  const cache = new Map<string, Promise<ProviderCredentials | null>>();
  return (accountId: string, provider: RemoteVoiceProvider) => {
    const key = `${accountId}:${provider}`;
    let credentials = cache.get(key);
    if (!credentials) {
      credentials = loadProviderCredentials(services as Services, accountId, provider);
      cache.set(key, credentials);
    }
    return credentials;
  };
}
