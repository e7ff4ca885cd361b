// Why a contact selected for enrolling (POST /workflows/{id}/enrollments) is not enrolled. Pure:
// the job's chunks gather the facts (enrollment-jobs.service.ts) and ask here, in one order.

/** Every reason, in the order they are checked and listed. */
export const NOT_ENROLLED_REASONS = [
  /** An id sent that is no contact of the Account. */
  'not_found',
  /** The workflow was paused, unpublished or deleted while the job ran. */
  'workflow_not_published',
  /** The contact is enrolled in this workflow now (stop it first to start over). */
  'already_enrolled',
  /** Without reEnroll: this workflow has called the contact before. */
  'already_called',
  /** The phone is on the Account's block list, or the contact asked not to be called (status dnc). */
  'blocked',
  /** The calling rules need a consent the contact has not given for this workflow (dialing decision: consent_required). */
  'no_consent',
] as const;
export type NotEnrolledReason = (typeof NOT_ENROLLED_REASONS)[number];

/** How many contacts not enrolled a job lists with their reason (notEnrolledCount and the per-reason counts count them all). */
export const NOT_ENROLLED_LISTED = 1000;

/** What a chunk knows of one selected contact. */
export interface EnrollFacts {
  workflowOpen: boolean;
  activeInWorkflow: boolean;
  calledByWorkflow: boolean;
  reEnroll: boolean;
  /** The dialing decision's reasons that last until someone acts, for this contact and workflow. */
  blocked: boolean;
  consentRequired: boolean;
}

/** The first reason that keeps the contact out, or null: it is enrolled. */
export function notEnrolledReason(f: EnrollFacts): NotEnrolledReason | null {
  if (!f.workflowOpen) return 'workflow_not_published';
  if (f.activeInWorkflow) return 'already_enrolled';
  if (f.calledByWorkflow && !f.reEnroll) return 'already_called';
  if (f.blocked) return 'blocked';
  if (f.consentRequired) return 'no_consent';
  return null;
}
