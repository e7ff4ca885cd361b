// What an import's written batch counts: each applied item is "created" when it is the first
// of the batch to write a contact that was not stored before, else "updated" (a later item for
// the same contact updates what the first created), so created + updated + the items the
// writer skipped = the items accepted.
import type { ImportRejection } from './contact-jobs.store.js';
import type { WriteOutcome } from './contacts-write.service.js';

/** The reason reported for an item the writer skipped: its customFields, merged with the stored ones, pass the limits. */
export const SKIPPED_OVER_LIMIT = 'custom-fields-over-limit';

/**
 * The counts of a written batch: `outcomes` in the order of the applied items, `skippedPositions`
 * the positions (in the batch) of the items skipped, `indexes` each item's index in the request.
 */
export function countImport(
  outcomes: WriteOutcome[],
  skippedPositions: number[],
  indexes: number[] | undefined,
): { created: number; updated: number; rejected: ImportRejection[] } {
  const seen = new Set<string>();
  let created = 0;
  for (const outcome of outcomes) {
    if (outcome.created && !seen.has(outcome.contact.id)) created++;
    seen.add(outcome.contact.id);
  }
  const rejected = skippedPositions.map((position) => ({
    index: indexes?.[position] ?? position,
    reason: SKIPPED_OVER_LIMIT,
  }));
  return { created, updated: outcomes.length - created, rejected };
}
