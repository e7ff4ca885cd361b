// How an action run fails in monday's terms: a 4xx/5xx with a severity body. 4000: this run
// failed, the automation stays on; 6000: the configuration can never succeed, monday disables
// the automation. A 5xx without severity makes monday retry (for transient failures on our side
// or monday's API rate limits). Which failure is which: README, "What a failure looks like on
// the board".
import { STATUS_CODES } from 'node:http';

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
    readonly body: SeverityBody | { error: string; message: string },
  ) {
    super('severityCode' in body ? body.notificationErrorTitle : body.message);
    this.name = 'MondayActionFailure';
  }
}

/** This run failed (bad or missing value on the item); the automation stays on. */
export function runFailed(title: string, description: string, runtime: string): MondayActionFailure {
  return new MondayActionFailure(400, { severityCode: 4000, notificationErrorTitle: title, notificationErrorDescription: description, runtimeErrorDescription: runtime });
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

/** A transient failure: no severity, so monday retries the run (for up to 30 minutes). */
export function retryLater(message: string, status = 503): MondayActionFailure {
  return new MondayActionFailure(status, { error: STATUS_CODES[status] ?? 'Error', message });
}
