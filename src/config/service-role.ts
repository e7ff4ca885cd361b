// What a `contactline serve` process runs, and how many processes share its port
// (docs/decisions/0043-process-roles.md). Its own module, with no imports: the CLI reads it to
// define its options before anything heavy is loaded.
import os from 'node:os';

/**
 * - `all`: the public HTTP surface and every background job (one process does everything);
 * - `api`: the public HTTP surface only; jobs are sent to the queue, never run here;
 * - `worker`: every background job, and an HTTP server for the probes only (/healthz, /readyz,
 *   /metrics; every other path 404).
 */
export const SERVICE_ROLES = ['all', 'api', 'worker'] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

/** The most processes `serve --processes` forks. */
export const MAX_SERVICE_PROCESSES = 256;

/** `--processes` / SERVICE_PROCESSES: a whole number from 1, or `auto` (one per CPU Node may use); undefined if neither. */
export function parseProcessCount(text: string): number | undefined {
  const value = text.trim();
  if (value === 'auto') return os.availableParallelism();
  if (!/^[0-9]+$/.test(value)) return undefined;
  const count = Number(value);
  return count >= 1 && count <= MAX_SERVICE_PROCESSES ? count : undefined;
}
