// Opaque page tokens for keyset-paged lists: base64url of the last row's sort time and id
// (its createdAt for contacts and workflows; a call's startedAt for a contact's calls).
// A token that does not decode to exactly that shape is a 400, never a 500.
import { z } from 'zod';
import { badRequest } from '../errors.js';
import { UUID_PATTERN } from './ids.js';

/** Whatever is wrong with a page size (not a number, not an integer, out of bounds), the one thing to say. */
const PAGE_LIMIT_RULE = { error: 'must be an integer from 1 to 100' };

/** A page size: an integer from 1 to 100, default 50 (its text in a query string). */
export const PageLimitSchema = z.coerce
  .number(PAGE_LIMIT_RULE)
  .int(PAGE_LIMIT_RULE)
  .min(1, PAGE_LIMIT_RULE)
  .max(100, PAGE_LIMIT_RULE)
  .default(50);

/** A list's page query: limit 1 to 100, default 50; an opaque nextToken of at most 512 characters. */
export const PageQuerySchema = z.object({
  limit: PageLimitSchema,
  nextToken: z.string().min(1).max(512).optional(),
});

export interface Cursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id])).toString('base64url');
}

export function decodeCursor(token: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      UUID_PATTERN.test(value[1])
    ) {
      const createdAt = new Date(value[0]);
      if (!Number.isNaN(createdAt.getTime())) return { createdAt, id: value[1] };
    }
  } catch {
    // fall through to the 400 below
  }
  throw badRequest('nextToken is not a token this API issued');
}

/**
 * The Prisma clauses of a newest-first page (createdAt, then id, descending) after `nextToken`:
 * spread into a findMany with its own `where`. One row more than the page is read, so the page
 * knows whether another follows (newestFirstPageOf).
 */
export function newestFirstPage(page: { limit: number; nextToken?: string }) {
  const cursor = page.nextToken ? decodeCursor(page.nextToken) : null;
  return {
    after: cursor
      ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
      : {},
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    take: page.limit + 1,
  };
}

/** The page of rows read with newestFirstPage's `take`, with the token of the next one (null on the last). */
export function newestFirstPageOf<T extends Cursor>(rows: T[], limit: number): { data: T[]; nextToken: string | null } {
  const data = rows.slice(0, limit);
  return { data, nextToken: rows.length > limit ? encodeCursor(data[data.length - 1]) : null };
}
