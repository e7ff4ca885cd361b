// List and search: one page of the Account's contacts, newest first. What matches, and how the
// page is found fast whatever the planner's statistics, is the page's SQL (contacts-list.store.ts).
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { encodeCursor } from '../shared/cursor.js';
import { parseInput } from '../shared/validation.js';
import type { ContactRow } from './contacts.rules.js';
import { ListQuerySchema } from './contacts.inputs.js';
import { heavyReads } from '../shared/heavy-reads.js';
import { findContactPage } from './contacts-list.store.js';

export interface ContactPage {
  data: ContactRow[];
  nextToken: string | null;
}

export async function listContacts(ctx: RequestContext, query: unknown): Promise<ContactPage> {
  const actor = requireActor(ctx);
  const q = parseInput(ListQuerySchema, query);
  // One row more than the page tells whether another page exists: the last page carries no nextToken.
  // From the read replica when there is one (a page may lag the primary by its replay delay).
  const rows = await findContactPage(heavyReads(ctx), actor.accountId, q);
  const data = rows.slice(0, q.limit);
  return { data, nextToken: rows.length > q.limit ? encodeCursor(data[data.length - 1]) : null };
}
