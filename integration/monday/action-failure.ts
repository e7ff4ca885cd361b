// How an action run fails in monday's terms. A severity body on a 4xx: 4000, this run failed
// and the automation stays on; 6000, the configuration can never succeed and monday disables
// the automation. Anything else is the API's error body with its status: a 5xx makes monday
// retry (for transient failures on our side or monday's API rate limits), another 4xx is logged
// by monday and not retried. Which failure is which: the board column of FAILURES in
// src/domain/errors.ts (refined by the error's reason); docs/board-app.md, "What a failure looks
// like on the board". The app's own checks of what monday sent (a field missing, the item gone, a
// column of the wrong type) answer here directly.
import { asDomainError, boardFormOf, DomainError, type FailureReason } from '../../src/domain/errors.js';
import { errorBody } from '../../src/http/error-body.js';
import { MondayApiFailure } from './monday-api.js';

export interface SeverityBody {
  severityCode: 4000 | 6000;
  notificationErrorTitle: string;
  notificationErrorDescription: string;
  runtimeErrorDescription: string;
  disableErrorDescription?: string;
}

export class MondayActionFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: SeverityBody | Record<string, unknown>,
    /** What failed on our side, to log (a 5xx the service caused); the answer never shows it. */
    readonly failure?: unknown,
  ) {
    super('severityCode' in body ? String(body.notificationErrorTitle) : String(body.message));
    this.name = 'MondayActionFailure';
  }
}

/** This run failed (bad or missing value on the item); the automation stays on. */
export function runFailed(title: string, description: string, runtime: string): MondayActionFailure {
  return new MondayActionFailure(400, {
    severityCode: 4000,
    notificationErrorTitle: title,
    notificationErrorDescription: description,
    runtimeErrorDescription: runtime,
  });
}

/** The automation cannot work as configured (mapping out of date, workflow archived): monday turns it off. */
export function automationBroken(title: string, description: string, runtime: string): MondayActionFailure {
  return new MondayActionFailure(400, {
    severityCode: 6000,
    notificationErrorTitle: title,
    notificationErrorDescription: description,
    runtimeErrorDescription: runtime,
    disableErrorDescription: description,
  });
}

/** A transient failure: the error body without severity, so monday retries the run (for up to 30 minutes). */
export function retryLater(message: string, status: 500 | 503 = 503, requestId?: string): MondayActionFailure {
  return answerOf(new DomainError(status === 503 ? 'unavailable' : 'internal', message), requestId);
}

/** The board's words for a refusal whose reason the domain names; the description defaults to the error's message. */
/** A workflow by its name when the error names one ("The chosen workflow "Renewals""). */
const chosenWorkflow = (subject?: string) => (subject ? `The chosen workflow "${subject}"` : 'The chosen workflow');

const BOARD_WORDS: Record<FailureReason, { title: string; description?: (subject?: string) => string }> = {
  workflow_not_found: {
    title: 'Workflow cannot take enrollments',
    description: () =>
      'The chosen workflow no longer exists in Contactline: choose another workflow, then turn the automation back on.',
  },
  workflow_draft: {
    title: 'Workflow cannot take enrollments',
    description: (subject) =>
      `${chosenWorkflow(subject)} is a draft in Contactline: publish it or choose another workflow, ` +
      'then turn the automation back on.',
  },
  workflow_archived: {
    title: 'Workflow cannot take enrollments',
    description: (subject) =>
      `${chosenWorkflow(subject)} is archived in Contactline: choose another workflow, ` +
      'then turn the automation back on.',
  },
  workflow_paused: {
    title: 'Workflow is paused',
    description: (subject) =>
      `${chosenWorkflow(subject)} is paused in Contactline, so it cannot take new contacts: ` +
      'resume it, then run the automation again.',
  },
  board_not_mapped: { title: 'No board mapped' },
  item_on_other_board: { title: 'Board not mapped' },
  mapping_out_of_date: { title: 'Column mapping out of date' },
  phone_missing: { title: 'Phone number missing' },
  phone_invalid: { title: 'Phone number invalid' },
  no_call_result: { title: 'No call yet' },
  unknown_call_result: { title: 'Unknown call result' },
};

/** A domain refusal without a reason of its own (e.g. a field of the item the contact rules refuse). */
const REFUSED: { title: string; description?: (subject?: string) => string } = { title: 'The contact was refused' };

/**
 * Any failure of an action run in monday's terms: the app's own answer as it is; monday's API
 * busy → retry; monday refusing a call → this run failed; a DomainError (anything else is
 * `internal`) as the failure table says.
 */
export function actionFailureOf(error: unknown, requestId?: string): MondayActionFailure {
  if (error instanceof MondayActionFailure) return error;
  if (error instanceof MondayApiFailure) {
    if (error.kind === 'unavailable') return answerOf(new DomainError('unavailable', error.message), requestId);
    const runtime = `${error.kind}: ${error.message}`;
    return runFailed('monday refused a request', `monday answered: ${error.message}`, runtime);
  }
  const domain = asDomainError(error);
  if (domain) {
    const cause = domain.status >= 500 ? ((domain as { cause?: unknown }).cause ?? domain) : undefined;
    return answerOf(domain, requestId, cause);
  }
  return answerOf(new DomainError('internal', 'The service failed to handle the request'), requestId, error);
}

function answerOf(error: DomainError, requestId: string | undefined, failure?: unknown): MondayActionFailure {
  const form = boardFormOf(error);
  if (form === 'run_failed' || form === 'automation_off') {
    const words = error.reason ? BOARD_WORDS[error.reason] : REFUSED;
    const reason = error.reason ? ` (${error.reason})` : '';
    const runtime = `${error.code}${reason}: ${error.message}${requestId ? ` (request ${requestId})` : ''}`;
    const answer = form === 'run_failed' ? runFailed : automationBroken;
    return answer(words.title, words.description?.(error.subject) ?? error.message, runtime);
  }
  // `retry` (a 5xx) and `refused` (a 4xx): the API's error body, no severity.
  return new MondayActionFailure(error.status, errorBody(error, requestId ?? ''), failure);
}
