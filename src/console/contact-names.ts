// A contact's name as the console shows it, read by id: for pages that hold only contact ids
// (a workflow's enrollments, the contacts a stop did not apply to).
import type { RequestContext } from '../domain/context.js';
import { asDomainError } from '../domain/errors.js';
import { runOperation } from '../graphql/execute.js';
import { Operations } from '../graphql/operations/index.js';
import { nameOf } from './pages/contacts.js';

/** The contact's name, or null when the Account has no such contact (erased, or not an id). */
export async function contactName(ctx: RequestContext, id: string): Promise<string | null> {
  try {
    return nameOf((await runOperation(ctx, Operations.getContact, { id })).contact);
  } catch (error) {
    const code = asDomainError(error)?.code;
    if (code === 'not_found' || code === 'bad_request') return null;
    throw error;
  }
}
