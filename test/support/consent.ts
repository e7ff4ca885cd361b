// A contact's prior express written consent as the public API takes it with a write (the
// `consent` of PUT /api/v1/contacts/upsert, of each item of POST /api/v1/contacts/bulk). The
// calling rules (src/domain/calling-rules/) call a US contact of a telemarketing Account, the
// default of a new one, only with it: suites that dial give it to the contacts they enroll.

const HOUR_MS = 3_600_000;

export interface WrittenConsent {
  kind: 'express_written';
  method: 'web_form';
  evidence: string;
  obtainedAt: string;
  workflowId?: string;
}

/**
 * Consent signed on a web form an hour before `now` (the service's clock: a consent obtained
 * after it is refused with a 400); `workflowId` scopes it to one workflow.
 */
export function writtenConsent(now: Date, workflowId?: string): WrittenConsent {
  return {
    kind: 'express_written',
    method: 'web_form',
    evidence: 'signed up at example.com/form',
    obtainedAt: new Date(now.getTime() - HOUR_MS).toISOString(),
    ...(workflowId ? { workflowId } : {}),
  };
}
