// How CLI commands report: human-readable lines, or (with --json) exactly one JSON object on
// stdout. Errors carry an exit code: 2 for bad arguments/configuration, 1 for everything else.

import { Option } from 'commander';

/** Every command's `--json` switch. */
export const jsonOption = () => new Option('--json', 'print one JSON object on stdout');

/** Exit codes of the CLI. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** An error the CLI reports as a message (no stack trace) with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
    /** Stable code for --json consumers (domain error codes, `usage`, `config`, `failed`). */
    readonly code: string = exitCode === EXIT.usage ? 'usage' : 'failed',
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage, 'usage');

export interface Output {
  json: boolean;
  /** A human line on stdout (suppressed with --json). */
  line(text?: string): void;
  /** A note on stderr (always; stderr is never parsed). */
  note(text: string): void;
  /** The command's one result: a JSON object with --json, else nothing (human lines were printed). */
  result(value: Record<string, unknown>): void;
}

export function createOutput(json: boolean): Output {
  let printed = false;
  return {
    json,
    line(text = '') {
      if (!json) process.stdout.write(`${text}\n`);
    },
    note(text) {
      process.stderr.write(`${text}\n`);
    },
    result(value) {
      if (!json || printed) return;
      printed = true;
      process.stdout.write(`${JSON.stringify(value)}\n`);
    },
  };
}

/** Prints a failure: the message on stderr and, with --json, `{ ok: false, error }` on stdout. */
export function reportError(error: CliError, json: boolean): void {
  process.stderr.write(`error: ${error.message}\n`);
  if (json)
    process.stdout.write(`${JSON.stringify({ ok: false, error: { code: error.code, message: error.message } })}\n`);
}
