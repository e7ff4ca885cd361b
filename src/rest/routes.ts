// The REST API under /api/v1: parse the request, run the domain operation, shape the answer.
import { Router, type Request, type Response } from 'express';
import type { RequestContext, Services } from '../domain/context.js';
import { runOperation } from '../graphql/execute.js';
import { apiKeyContext } from '../http/request-context.js';
import { Operations } from './operations.js';
import { contactsToCsv } from './contacts.csv.js';

type Handler = (ctx: RequestContext, req: Request, res: Response) => Promise<void>;

/** Query values as the list schema takes them: repeated keys arrive as arrays. */
function listVariables(query: Request['query']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of ['status', 'sourceKind'] as const) {
    const value = query[name];
    if (value !== undefined) out[name] = (Array.isArray(value) ? value : [value]).map(String);
  }
  for (const name of ['addedSince', 'addedBefore', 'assignedWorkflowId', 'searchTerm', 'nextToken'] as const) {
    const value = query[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? String(value[value.length - 1]) : String(value);
  }
  if (query.limit !== undefined) {
    const limit = Number(query.limit);
    // A non-integer limit still reaches the schema's check, which names the bound.
    out.limit = Number.isSafeInteger(limit) ? limit : -1;
  }
  return out;
}

/**
 * limit and nextToken of a paged list. A non-integer limit reaches the schema's check as -1,
 * one beyond GraphQL's 32-bit Int as its largest value, so either is a 400 naming the bound.
 */
const INT32_MAX = 2 ** 31 - 1;

function pageVariables(query: Request['query']): { limit?: number; nextToken?: string } {
  const last = (value: unknown) => (Array.isArray(value) ? String(value[value.length - 1]) : String(value));
  const out: { limit?: number; nextToken?: string } = {};
  if (query.limit !== undefined) {
    const limit = Number(last(query.limit));
    out.limit = !Number.isSafeInteger(limit) ? -1 : Math.max(-INT32_MAX, Math.min(INT32_MAX, limit));
  }
  if (query.nextToken !== undefined) out.nextToken = last(query.nextToken);
  return out;
}

function externalIdPath(req: Request) {
  return { sourceKind: String(req.params.sourceKind), externalId: String(req.params.externalId) };
}

export function restRouter(services: Services): Router {
  const router = Router();
  const route = (handler: Handler) => async (req: Request, res: Response) => {
    const ctx = await apiKeyContext(services, req, res.locals.requestId as string);
    await handler(ctx, req, res);
  };

  router.get('/workflows', route(async (ctx, req, res) => {
    const limit = req.query.limit === undefined ? undefined : Number.isSafeInteger(Number(req.query.limit)) ? Number(req.query.limit) : -1;
    const { workflows } = await runOperation<{ workflows: { data: unknown[]; nextToken: string | null } }>(ctx, Operations.listWorkflows, {
      limit,
      nextToken: req.query.nextToken === undefined ? undefined : String(req.query.nextToken),
    });
    res.json({ data: workflows.data, nextToken: workflows.nextToken });
  }));

  router.put('/contacts/upsert', route(async (ctx, req, res) => {
    const { upsertContact } = await runOperation<{ upsertContact: { created: boolean; contact: unknown } }>(ctx, Operations.upsertContact, { input: req.body ?? null });
    res.status(upsertContact.created ? 201 : 200).json(upsertContact.contact);
  }));

  router.post('/contacts/bulk', route(async (ctx, req, res) => {
    const { importContacts } = await runOperation<{ importContacts: unknown }>(ctx, Operations.importContacts, { input: req.body ?? null });
    res.status(202).json(importContacts);
  }));

  router.post('/contacts/bulk-update', route(async (ctx, req, res) => {
    await runOperation(ctx, Operations.bulkUpdateContacts, { input: req.body ?? null });
    res.status(202).json({});
  }));

  router.get('/contacts', route(async (ctx, req, res) => {
    const { contacts } = await runOperation<{ contacts: { data: unknown[]; nextToken: string | null } }>(ctx, Operations.listContacts, listVariables(req.query));
    res.json(contacts.nextToken ? contacts : { data: contacts.data });
  }));

  router.get('/contacts/csv', route(async (ctx, req, res) => {
    const { contacts } = await runOperation<{ contacts: { data: Array<Record<string, unknown>>; nextToken: string | null } }>(ctx, Operations.listContacts, listVariables(req.query));
    if (contacts.nextToken) res.setHeader('x-next-token', contacts.nextToken);
    res.type('text/csv; charset=utf-8').send(contactsToCsv(contacts.data));
  }));

  router.get('/contacts/source/:sourceKind/external-id/:externalId/calls', route(async (ctx, req, res) => {
    const { contactCalls } = await runOperation<{ contactCalls: { data: unknown[]; nextToken: string | null } }>(ctx, Operations.listContactCalls, {
      ...externalIdPath(req),
      ...pageVariables(req.query),
    });
    res.json(contactCalls.nextToken ? contactCalls : { data: contactCalls.data });
  }));

  router.get('/calls/:id/transcript', route(async (ctx, req, res) => {
    const { callTranscript } = await runOperation<{ callTranscript: unknown }>(ctx, Operations.getCallTranscript, { id: String(req.params.id) });
    res.json(callTranscript);
  }));

  router.get('/contacts/source/:sourceKind/external-id/:externalId', route(async (ctx, req, res) => {
    const data = await runOperation<{ contactByExternalId: unknown }>(ctx, Operations.getContactByExternalId, externalIdPath(req));
    res.json(data.contactByExternalId);
  }));

  router.patch('/contacts/source/:sourceKind/external-id/:externalId', route(async (ctx, req, res) => {
    const data = await runOperation<{ patchContactByExternalId: unknown }>(ctx, Operations.patchContactByExternalId, { ...externalIdPath(req), input: req.body ?? null });
    res.json(data.patchContactByExternalId);
  }));

  router.get('/contacts/:id', route(async (ctx, req, res) => {
    const data = await runOperation<{ contact: unknown }>(ctx, Operations.getContact, { id: String(req.params.id) });
    res.json(data.contact);
  }));

  return router;
}
