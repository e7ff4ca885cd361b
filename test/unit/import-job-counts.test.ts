// What a written import batch counts (import-job.rules.ts): created once per new contact,
// every other applied item updated, and the writer's skips reported by their request index.
import { describe, expect, it } from 'vitest';
import { countImport, SKIPPED_OVER_LIMIT } from '../../src/domain/contacts/import-job.rules.js';
import type { WriteOutcome } from '../../src/domain/contacts/contacts-write.service.js';

const outcome = (id: string, created: boolean) => ({ contact: { id }, created }) as unknown as WriteOutcome;

describe('countImport', () => {
  it('counts a new contact written by several items as created once, the rest updated', () => {
    // "a" new, written by two items (both report created); "b" stored before.
    const counts = countImport([outcome('a', true), outcome('b', false), outcome('a', true)], [], undefined);
    expect(counts).toEqual({ created: 1, updated: 2, rejected: [] });
  });

  it("reports the writer's skipped items by their index in the request", () => {
    // The request's items 1 and 3 were refused at validation: the batch holds items 0, 2, 4, 5.
    const counts = countImport([outcome('a', true), outcome('b', true)], [1, 3], [0, 2, 4, 5]);
    expect(counts).toEqual({
      created: 2,
      updated: 0,
      rejected: [
        { index: 2, reason: SKIPPED_OVER_LIMIT },
        { index: 5, reason: SKIPPED_OVER_LIMIT },
      ],
    });
  });

  it('falls back to the position in the batch for a batch stored without indexes', () => {
    expect(countImport([], [0], undefined).rejected).toEqual([{ index: 0, reason: SKIPPED_OVER_LIMIT }]);
  });
});
