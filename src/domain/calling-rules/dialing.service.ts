// GET /contacts/{id}/dialing: whether the dialer may call the contact now, when next, and every
// rule that blocks it, decided by the dialer's own function (dialing-facts.ts) over the
// contact's current enrollment (the agent's working hours included), or the law and consent
// alone when it has none.
import { directSql } from '../../db/sql-client.js';
import { callingTimeZone, hasWorkingHours, type WorkingHours } from '../calls/calling-hours.rules.js';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import type { DialingDecision, EnrollmentHold, EnrollmentInputs } from './dialing-decision.rules.js';
import { decideForSubjects } from './dialing-facts.js';
import { contactOf, type ContactRef } from './consents.service.js';
import { blockAndCurrentEnrollment } from './dialing.store.js';
import { RULE_SET } from './rule-set.js';

/**
 * Enrollment.dialingHold of an enrollment the dialer moved to the next instant the rules allow:
 * its nextAttemptAt is the dialer's own choice, not a retry delay (it was due when moved).
 */
export const DEFERRED = 'deferred';

export interface ContactDialing extends DialingDecision {
  contactId: string;
  /** The enrollment the decision is for; null: none is active, the law and consent alone were checked. */
  enrollment: {
    workflowId: string;
    agentId: string | null;
    attempts: number;
    dueAt: Date | null;
    immediate: boolean;
  } | null;
}

/** An enrollment as the decision takes it: the zone its agent's hours apply in, and whether it is called at once. */
export function enrollmentInputs(args: {
  workflowId: string;
  attempts: number;
  enforceCallNow: boolean;
  callNewContactsImmediately: boolean;
  workingHours: WorkingHours;
  agentTimezone: string;
  contactTimezone: string | null;
  dueAt: Date | null;
  holds: readonly EnrollmentHold[];
}): EnrollmentInputs {
  return {
    workflowId: args.workflowId,
    workingHours: args.workingHours,
    hoursTimeZone: callingTimeZone(args.contactTimezone, args.agentTimezone),
    // New contacts may be called at once (enforceCallNow, or the agent's option): outside the
    // agent's working hours, never outside the law.
    immediate: args.attempts === 0 && (args.enforceCallNow || args.callNewContactsImmediately),
    dueAt: args.dueAt,
    holds: args.holds,
  };
}

export async function contactDialing(ctx: RequestContext, ref: ContactRef): Promise<ContactDialing> {
  const { accountId } = requireActor(ctx);
  const contact = await contactOf(ctx, ref);
  const sql = directSql(ctx.db.sql);
  const { blocked, enrollment } = await blockAndCurrentEnrollment(sql, accountId, contact.id, contact.phone);
  let inputs: EnrollmentInputs | null = null;
  if (enrollment) {
    const hasAgent = enrollment.hasAgent;
    const hours = (enrollment.workingHours ?? {}) as WorkingHours;
    const callNewContactsImmediately = Boolean(enrollment.callNewContactsImmediately);
    const immediate = enrollment.attempts === 0 && (enrollment.enforceCallNow || callNewContactsImmediately);
    // The dialer's claim skips these (src/jobs/dialer.store.ts), in its order.
    const holds: Array<[boolean, EnrollmentHold]> = [
      [enrollment.nextAttemptAt === null, 'call_in_progress'],
      [!hasAgent, 'no_agent'],
      [enrollment.workflowStatus !== 'published', 'workflow_not_published'],
      [enrollment.workflowPaused, 'workflow_paused'],
      [hasAgent && enrollment.agentStatus !== 'live', 'agent_not_live'],
      [hasAgent && !hasWorkingHours(hours) && !immediate, 'no_working_hours'],
      [contact.phone === null, 'no_phone'],
      [contact.status === 'paused', 'contact_paused'],
    ];
    inputs = enrollmentInputs({
      workflowId: enrollment.workflowId,
      attempts: enrollment.attempts,
      enforceCallNow: enrollment.enforceCallNow,
      callNewContactsImmediately,
      workingHours: hours,
      agentTimezone: enrollment.agentTimezone ?? 'UTC',
      contactTimezone: contact.timezone,
      // An enrollment the dialer set aside or moved was due then: its time is not a retry delay.
      dueAt: enrollment.dialingHold ? null : enrollment.nextAttemptAt,
      holds: holds.filter(([applies]) => applies).map(([, hold]) => hold),
    });
  }
  const [decision] = await decideForSubjects(
    sql,
    RULE_SET,
    [
      {
        accountId,
        contactId: contact.id,
        phone: contact.phone,
        location: contact.location,
        locationDefaulted: contact.locationDefaulted,
        timezone: contact.timezone,
        dnc: contact.status === 'dnc',
        blocked,
        enrollment: inputs,
      },
    ],
    ctx.clock.now(),
  );
  return {
    contactId: contact.id,
    ...decision,
    enrollment: enrollment
      ? {
          workflowId: enrollment.workflowId,
          agentId: enrollment.agentId,
          attempts: enrollment.attempts,
          dueAt: enrollment.nextAttemptAt,
          immediate: inputs?.immediate ?? false,
        }
      : null,
  };
}
