// The contacts a bulk action of the Contacts page is for, read from its form: the rows ticked
// (their ids), or every contact the page's search matches (the list operation's filter). The
// domain's selection input takes either (ContactSelectionSchema); this only builds it.
import type { Request } from 'express';
import { formList } from './console-kit.js';

export interface ContactFilters {
  searchTerm?: string;
  status?: string;
  sourceKind?: string;
}

export type Selection = { contactIds: string[] } | { filter: Record<string, unknown> };

/** The search's filters as the list operation's filter (status and sourceKind are lists there). */
export function filterOf(filters: ContactFilters): Record<string, unknown> {
  return {
    ...(filters.searchTerm ? { searchTerm: filters.searchTerm } : {}),
    ...(filters.status ? { status: [filters.status] } : {}),
    ...(filters.sourceKind ? { sourceKind: [filters.sourceKind] } : {}),
  };
}

/** The search the form was sent from (its hidden fields). */
export function filtersOfForm(req: Request): ContactFilters {
  const text = (name: string) => (typeof req.body?.[name] === 'string' && req.body[name] ? req.body[name] : undefined);
  return { searchTerm: text('searchTerm'), status: text('status'), sourceKind: text('sourceKind') };
}

/** The selection the form names, or null when it names none (no row ticked, "all" not chosen). */
export function selectionOfForm(req: Request, filters: ContactFilters): Selection | null {
  if (req.body?.scope === 'all') return { filter: filterOf(filters) };
  const ids = [...new Set(formList(req, 'contactId'))];
  return ids.length > 0 ? { contactIds: ids } : null;
}
