// Enrollment effects on a contact: the contact fields an enrollment sets (listed on
// applyEnrollment below). The calls engine adds the schedule on top of these.
import type { ContactRow } from '../contacts/contacts.rules.js';

export interface Enrollment {
  workflowId: string;
  /** The voice agent's attempt limit, copied into maxAttempts (null until agents exist). */
  attemptLimit: number | null;
  reEnroll: boolean;
  enforceCallNow: boolean;
}

/**
 * Sets assignedWorkflowId, copies the attempt limit, clears lastCallAt (except on
 * re-enrollment), nulls nextCallAt, restarts callCount unless reEnroll, and moves a
 * contact with no status or `not_assigned` to `assigned`.
 */
export function applyEnrollment(contact: ContactRow, enrollment: Enrollment): ContactRow {
  const next = { ...contact };
  next.assignedWorkflowId = enrollment.workflowId;
  next.maxAttempts = enrollment.attemptLimit;
  next.nextCallAt = null;
  if (!enrollment.reEnroll) {
    next.lastCallAt = null;
    next.callCount = 0;
  }
  if (next.status === null || next.status === 'not_assigned') next.status = 'assigned';
  return next;
}
