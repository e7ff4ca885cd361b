// The dialer: places due calls. Each run claims up to `batchSize` due enrollments (highest
// contact priority first, then the longest due: read in that order from one index, see
// migration 20261122080000_dialer_claim_order) with FOR UPDATE SKIP LOCKED, so several
// worker processes on one PostgreSQL never claim the same enrollment; a claimed enrollment
// is marked in flight (no next attempt time) in the same transaction as its Call row.
// Calls are placed after the commit; the outcome comes back as telephony events. Calls whose
// outcome never comes are swept (recoverUnreportedCalls): a Vapi or Retell call is asked about
// at its provider (provider-report-recovery.ts), any other is given up and its enrollment is due again.
//
// An active enrollment's nextAttemptAt is NULL only while its call is in flight. An agent
// with no working-hours window at all calls nobody except first attempts that are called at
// once (enforceCallNow, or its call-new-contacts-immediately option): the claim skips its other
// enrollments, which stay due with their time unchanged, as those of a paused agent do, so the
// first pass after hours are set calls them.
import { randomUUID } from 'node:crypto';
import type { Services } from '../domain/context.js';
import { directSql, type SqlClient } from '../db/sql-client.js';
import type { RemoteVoiceProvider, VoiceProvider } from '../calls/telephony/voice-provider.port.js';
import { placeProviderCalls, reconcilePlacements, type PlacingCall } from './provider-placement.js';
import { recoverProviderReports } from './provider-report-recovery.js';
import { giveUpUnaskableCalls } from './provider-report-recovery.store.js';
import { callingTimeZone } from '../domain/calls/calling-hours.rules.js';
import type { WorkingHours } from '../domain/calls/calling-hours.rules.js';
import type { DialingDecision } from '../domain/calling-rules/dialing-decision.rules.js';
import { decideForSubjects, type DialingSubject } from '../domain/calling-rules/dialing-facts.js';
import { enrollmentInputs } from '../domain/calling-rules/dialing.service.js';
import { RULE_SET } from '../domain/calling-rules/rule-set.js';
import { DEFERRED } from '../domain/calling-rules/dialing.service.js';
import {
  claimDueEnrollments,
  countCallsInFlight,
  lockCapHolders,
  recordClaims,
  type DueEnrollment,
} from './dialer.store.js';
import type { PlaceCallRequest, Telephony } from '../calls/telephony/telephony.port.js';
import { logger } from '../logger.js';
import { startPeriodic, type PeriodicWorker } from './periodic.js';

/** A call claimed for placing, with the ids its Call row needs. */
type ClaimedCall = PlaceCallRequest & {
  accountId: string;
  enrollmentId: string;
  provider: VoiceProvider;
  audit: object;
};

export interface DialerRun {
  placed: ClaimedCall[];
  /** Due enrollments outside their calling hours, moved to their next window. */
  deferred: number;
}

/** Each provider's default cap on calls in flight (its documented account default). */
function defaultCaps(services: Pick<Services, 'voice'>): Record<RemoteVoiceProvider, number | null> {
  const adapters = services.voice?.adapters ?? {};
  return {
    vapi: adapters.vapi?.defaultMaxConcurrentCalls ?? null,
    retell: adapters.retell?.defaultMaxConcurrentCalls ?? null,
  };
}

/**
 * The room left under each cap of these due enrollments' agents and keys, counted while holding
 * the agents' and keys' rows locked, so that dialers on one PostgreSQL that claim at the same
 * time take turns and never place past a cap together. Two round trips: the locks (agents, then
 * keys, each in id order: one order for every dialer, so no deadlock), then the counts, in a
 * statement of their own so that they see the calls of the dialer that held the locks before us
 * (in READ COMMITTED each statement reads a fresh snapshot). take() spends one place.
 */
async function roomInFlight(tx: SqlClient, due: DueEnrollment[]): Promise<{ take(item: DueEnrollment): boolean }> {
  const agents = [...new Set(due.filter((d) => d.agentCap !== null).map((d) => d.agentId))].sort();
  const keys = [...new Set(due.filter((d) => d.keyCap !== null).map((d) => `${d.accountId}:${d.provider}`))]
    .sort()
    .map((k) => k.split(':'));
  const room = new Map<string, number>();
  if (agents.length > 0 || keys.length > 0) {
    const keyAccounts = keys.map((k) => k[0]);
    const keyProviders = keys.map((k) => k[1]);
    await lockCapHolders(tx, agents, keyAccounts, keyProviders);
    const counts = await countCallsInFlight(tx, agents, keyAccounts, keyProviders);
    const inFlight = new Map(counts.map((c) => [c.cap, c.n]));
    for (const d of due) {
      if (d.agentCap !== null) room.set(`agent:${d.agentId}`, d.agentCap - (inFlight.get(`agent:${d.agentId}`) ?? 0));
      if (d.keyCap !== null)
        room.set(
          `key:${d.accountId}:${d.provider}`,
          d.keyCap - (inFlight.get(`key:${d.accountId}:${d.provider}`) ?? 0),
        );
    }
  }
  return {
    take(item) {
      const names = [
        item.agentCap !== null ? `agent:${item.agentId}` : null,
        item.keyCap !== null ? `key:${item.accountId}:${item.provider}` : null,
      ].filter((n): n is string => n !== null);
      if (names.some((n) => (room.get(n) ?? 0) <= 0)) return false;
      for (const n of names) room.set(n, (room.get(n) ?? 0) - 1);
      return true;
    },
  };
}

/** When the agent's windows exist but none opens in the lookahead, look again after this long. */
const RECHECK_WITHOUT_WINDOW_MS = 86_400_000;

/** A call with no report this long after it was placed (or started) is swept: given up and retried, or asked about (below). */
export const UNREPORTED_PLACED_MS = 30 * 60_000;
export const UNREPORTED_STARTED_MS = 3 * 3600_000;

/**
 * The sweep of calls nobody reported on (a worker died between claiming and placing, or the
 * final report was lost): open calls past the cut-offs. A Vapi or Retell call with the
 * provider's call id is asked about at its provider, and ends with the provider's own report, or
 * is left in flight, or is given up (provider-report-recovery.ts). Any other call is given up at
 * once: marked failed, its enrollment due again. A late report for a call given up still applies
 * (its status is not "ended"). Returns the calls settled (given up, or ended with the provider's report).
 */
export async function recoverUnreportedCalls(services: Pick<Services, 'db' | 'clock' | 'voice'>): Promise<number> {
  const now = services.clock.now();
  const cutoffs = {
    placedBefore: new Date(now.getTime() - UNREPORTED_PLACED_MS),
    startedBefore: new Date(now.getTime() - UNREPORTED_STARTED_MS),
  };
  const blind = await services.db.sql.transaction((runner) => giveUpUnaskableCalls(directSql(runner), now, cutoffs));
  const asked = await recoverProviderReports(services, cutoffs);
  return blind + asked.recovered + asked.givenUp;
}

/**
 * One dialer pass at the services' clock time. Simulator calls go to `telephony`; Vapi and
 * Retell calls to their adapters (services.voice), after the claim commits.
 */
export async function runDialerOnce(
  services: Pick<Services, 'db' | 'clock' | 'voice'>,
  telephony: Telephony,
  batchSize = 100,
): Promise<DialerRun> {
  const now = services.clock.now();
  const defaults = defaultCaps(services);
  const { placed, remote, deferred } = await services.db.sql.transaction(async (runner) => {
    const tx = directSql(runner);
    // Agents at a cap are not even read (their enrollments stay due); the exact room left is
    // counted under locks below.
    const due = await claimDueEnrollments(tx, now, defaults, batchSize);
    const room = await roomInFlight(tx, due);
    const calls: ClaimedCall[] = [];
    const remote: PlacingCall[] = [];
    const later: Array<{ id: string; at: Date; hold: string | null }> = [];
    // The calling rules decide for the whole batch at once (four reads): the law where the
    // contact may be, its consent and registry listings, the calls already placed to it, the
    // Account's policy, and the agent's working hours (skipped by first attempts called at once,
    // never the law). The same function answers GET /contacts/{id}/dialing.
    const decisions = await decideForSubjects(tx, RULE_SET, due.map(subjectOf), now);
    due.forEach((item, i) => {
      const decision = decisions[i];
      if (decision.callableNow) {
        // At a cap: left due, untouched, for a later pass.
        if (!room.take(item)) return;
        const call: ClaimedCall = {
          callId: randomUUID(),
          phone: item.phone,
          agentId: item.agentId,
          workflowId: item.workflowId,
          contactId: item.contactId,
          language: item.language ?? item.defaultLanguage,
          startedAt: now,
          accountId: item.accountId,
          enrollmentId: item.enrollmentId,
          provider: item.provider,
          audit: dialingAudit(decision, now),
        };
        calls.push(call);
        if (item.provider !== 'simulator') remote.push(placingCallOf(item, call));
      } else if (decision.nextCallableAt) {
        // Marked as the dialer's own wait, so GET /dialing does not read it as a retry delay.
        later.push({ id: item.enrollmentId, at: decision.nextCallableAt, hold: DEFERRED });
      } else {
        // Blocked until someone acts (a consent, a registry copy, a policy change: each brings
        // it back at once), or no window within the lookahead: looked at again a day later, so
        // nextAttemptAt is never NULL for an enrollment without a call in flight.
        const lasting = decision.reasons.find((r) => r.until === null);
        later.push({
          id: item.enrollmentId,
          at: new Date(now.getTime() + RECHECK_WITHOUT_WINDOW_MS),
          hold: lasting?.code ?? DEFERRED,
        });
      }
    });
    await recordClaims(tx, calls, later, now);
    return { placed: calls, remote, deferred: later.length };
  });
  for (const call of placed.filter((c) => c.provider === 'simulator')) {
    await telephony
      .placeCall(call)
      .catch((error) => logger.error({ err: error, callId: call.callId }, 'placing a call failed'));
  }
  if (remote.length > 0) await placeProviderCalls(services, remote);
  return { placed, deferred };
}

/** A due enrollment as the calling rules' decision takes it (the claim already skipped held ones). */
function subjectOf(item: DueEnrollment): DialingSubject {
  return {
    accountId: item.accountId,
    contactId: item.contactId,
    phone: item.phone,
    location: item.location,
    locationDefaulted: item.locationDefaulted,
    timezone: item.contactTimezone,
    // The claim reads no contact in dnc and no blocked phone.
    dnc: false,
    blocked: false,
    enrollment: enrollmentInputs({
      workflowId: item.workflowId,
      attempts: item.attempts,
      enforceCallNow: item.enforceCallNow,
      callNewContactsImmediately: item.callNewContactsImmediately,
      workingHours: item.workingHours as WorkingHours,
      agentTimezone: item.agentTimezone,
      contactTimezone: item.contactTimezone,
      dueAt: null,
      holds: [],
    }),
  };
}

/** What a placed call's audit keeps of the decision that allowed it. */
function dialingAudit(decision: DialingDecision, now: Date): object {
  return {
    decidedAt: now.toISOString(),
    ruleSetVersion: decision.ruleSetVersion,
    purpose: decision.purpose,
    timeZones: decision.timeZones,
    jurisdictions: decision.jurisdictions,
    ruleIds: decision.ruleIds,
    consent: decision.consentUsed,
    attempts: decision.attempts.map(({ ruleId, jurisdiction, max, periodHours, counted }) => ({
      ruleId,
      jurisdiction,
      max,
      periodHours,
      counted,
    })),
  };
}

/** A claimed Vapi or Retell call, with what its provider request needs (read by the claim). */
function placingCallOf(item: DueEnrollment, call: ClaimedCall): PlacingCall {
  return {
    callId: call.callId,
    accountId: item.accountId,
    enrollmentId: item.enrollmentId,
    provider: item.provider as RemoteVoiceProvider,
    placedAt: call.startedAt,
    phone: item.phone,
    firstName: item.firstName,
    lastName: item.lastName,
    fullName: item.fullName,
    customFields: item.customFields,
    language: item.language ?? item.defaultLanguage,
    timezone: callingTimeZone(item.contactTimezone, item.agentTimezone),
    providerAgentId: item.providerAgentId,
    providerPhoneNumber: item.providerPhoneNumber,
    secrets: item.apiKeyEncrypted
      ? { apiKeyEncrypted: item.apiKeyEncrypted, webhookSecretEncrypted: item.webhookSecretEncrypted }
      : null,
  };
}

/** Runs the dialer every `intervalMs`, one pass at a time, until stopped. */
export function startDialer(
  services: Pick<Services, 'db' | 'clock' | 'voice'>,
  telephony: Telephony,
  intervalMs = 1000,
): PeriodicWorker {
  // The unreported-call sweep's cut-offs are 30 minutes and 3 hours, and it asks a provider
  // about one call at most every 5 minutes: once a minute is plenty (from the first pass on),
  // where the claim runs every pass.
  const recoverEvery = Math.max(1, Math.round(60_000 / intervalMs));
  let pass = 0;
  return startPeriodic(
    intervalMs,
    async () => {
      if (pass++ % recoverEvery === 0) await recoverUnreportedCalls(services);
      if (services.voice) await reconcilePlacements(services);
      await runDialerOnce(services, telephony);
    },
    (error) => logger.warn({ err: error }, 'dialer pass failed; retrying next tick'),
  );
}
