// When a contact's next call will be placed, and why then: the contact's active enrollment read
// with its workflow and agent, and the dialer's own rules applied ahead of time (the zone the
// working hours apply in, and the first instant inside them). A contact's nextCallAt is the time
// the last call asked to try again at (its provider's or the agent's retry delay), which can fall
// outside the agent's hours; the dialer moves such an attempt to the next window when it is due.
// The console shows this, so it never promises a call the dialer will not place.
import { type RequestContext, requireConsoleUser } from '../context.js';
import { notFound } from '../errors.js';
import { callingTimeZone, hasWorkingHours, plannedCallTime, type WorkingHours } from '../calls/calling-hours.rules.js';
import { assertUuid } from '../shared/ids.js';

/** Why nobody calls the contact now, whatever the time: the dialer's claim skips the enrollment. */
export const NEXT_CALL_HOLDS = [
  'call_in_progress',
  'no_agent',
  'workflow_not_published',
  'workflow_paused',
  'agent_not_live',
  'no_working_hours',
  'no_phone',
  'contact_paused',
] as const;
export type NextCallHold = (typeof NEXT_CALL_HOLDS)[number];

export interface NextCall {
  workflowId: string;
  agentId: string | null;
  agentName: string | null;
  /** When the enrollment is due (the time the last call asked for, or the enrollment's time); null while a call is in flight. */
  dueAt: Date | null;
  /** When the dialer will place the call, held reasons aside; null when no window opens. */
  plannedAt: Date | null;
  /** The zone the agent's working hours are applied in for this contact. */
  timeZone: string | null;
  /** Whose zone that is: the contact's, or the agent's (the contact has none). */
  timeZoneOf: 'contact' | 'agent' | null;
  /** A first attempt placed at once, even outside the working hours (enforceCallNow or the agent's option). */
  immediate: boolean;
  /** Why the dialer does not call now, whatever the time; null: it calls at plannedAt. */
  heldBy: NextCallHold | null;
}

/**
 * Console: the next call of a contact of the signed-in person's Account; null when it is in no
 * active enrollment. Another Account's contact is not found.
 */
export async function accountContactNextCall(ctx: RequestContext, contactId: string): Promise<NextCall | null> {
  const { accountId } = requireConsoleUser(ctx);
  assertUuid(contactId, 'contactId');
  const contact = await ctx.db.prisma.contact.findFirst({
    where: { id: contactId, accountId },
    select: { id: true, phone: true, status: true, timezone: true },
  });
  if (!contact) throw notFound(`No contact ${contactId}`);
  const enrollment = await ctx.db.prisma.enrollment.findFirst({
    where: { contactId, accountId, active: true },
    orderBy: { createdAt: 'desc' },
    include: { workflow: { include: { agent: true } } },
  });
  if (!enrollment) return null;
  const { workflow } = enrollment;
  const agent = workflow.agent;
  const hours = (agent?.workingHours ?? {}) as WorkingHours;
  const immediate =
    enrollment.attempts === 0 && (enrollment.enforceCallNow || Boolean(agent?.callNewContactsImmediately));
  // The same conditions as the dialer's claim (src/jobs/dialer.store.ts), in its order: the first that holds.
  const holds: Array<[boolean, NextCallHold]> = [
    [enrollment.nextAttemptAt === null, 'call_in_progress'],
    [!agent, 'no_agent'],
    [workflow.status !== 'published', 'workflow_not_published'],
    [workflow.paused, 'workflow_paused'],
    [agent?.status !== 'live', 'agent_not_live'],
    [!hasWorkingHours(hours) && !immediate, 'no_working_hours'],
    [contact.phone === null, 'no_phone'],
    [contact.status === 'paused', 'contact_paused'],
  ];
  const heldBy = holds.find(([applies]) => applies)?.[1] ?? null;
  const timeZone = agent ? callingTimeZone(contact.timezone, agent.timezone) : null;
  const plannedAt =
    timeZone && enrollment.nextAttemptAt
      ? plannedCallTime({ hours, timeZone, dueAt: enrollment.nextAttemptAt, now: ctx.clock.now(), immediate })
      : null;
  return {
    workflowId: workflow.id,
    agentId: agent?.id ?? null,
    agentName: agent?.name ?? null,
    dueAt: enrollment.nextAttemptAt,
    plannedAt,
    timeZone,
    timeZoneOf: agent ? (contact.timezone ? 'contact' : 'agent') : null,
    immediate,
    heldBy,
  };
}
