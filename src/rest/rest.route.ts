// The REST API under /api/v1: parse the request, run the domain operation, shape the answer.
import express, { Router, type Request, type Response } from 'express';
import type { RequestContext, Services } from '../domain/context.js';
import { runOperation } from '../graphql/execute.js';
import { keyedRequestContext } from '../http/request-context.js';
import type { EdgeResponse } from '../http/edge-response.js';
import { DirectRoutes, type DirectHandler, type Params, type Query } from '../http/direct-routes.js';
import { sendBody, sendJson } from '../http/answers.js';
import { Operations, restPage } from '../graphql/operations/index.js';
import { callAuditToCsv, contactsToCsv } from '../graphql/operations/csv.js';
import {
  blockVariable,
  callAuditVariables,
  changesVariables,
  contactListVariables,
  deliveryListVariables,
  enrollmentPageVariables,
  externalIdPath,
  pageVariables,
  workflowResultsVariables,
} from '../graphql/operations/variables.js';
import { bodyTooLarge, declaresMoreThan } from '../http/edge/body-limits.js';
import { idempotencyKeyOf, idempotentWrites, noteBodyBytes, type AnswerSeal } from '../http/idempotency.js';
import { decryptSecret, encryptSecret } from '../domain/shared/secret-box.js';
import { badRequest, badRequestFor, type DomainError } from '../domain/errors.js';
import { openApiDocument, queryParametersByOperation } from './openapi.js';
import { textLineChunks } from './text-lines.js';

type Handler = (ctx: RequestContext, req: Request, res: Response) => Promise<void>;

/**
 * Only the operations that take a body read one, as JSON whatever its Content-Type says (a
 * client that forgets the header still works; a body that is not JSON is a 400). A GET's
 * body is never read, so it cannot turn a read into a 400 or a 413. The body is read only
 * after the key is checked: a request without a valid key is refused from its headers.
 */
export const REST_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
// `verify` sees the raw bytes: a keyed write is recognised by them (src/http/idempotency.ts).
const jsonBody = express.json({ limit: REST_BODY_LIMIT_BYTES, type: () => true, verify: noteBodyBytes });

/**
 * Reads the JSON body into req.body; a parser failure (413, bad JSON, a body cut off mid-way)
 * goes to the app's error mapper. The parser passes over a request it cannot read, leaving no
 * body: one that declares none (no Content-Length, no Transfer-Encoding), and one whose
 * connection is already gone (a Content-Length shorter than the bytes sent makes Node refuse
 * the rest as a request and close it while the key is being checked). Neither runs the
 * operation: it is a 400 (sent when the connection is still there), never a write of nothing.
 */
const readJsonBody = (req: Request, res: Response) =>
  new Promise<void>((resolve, reject) => {
    if (declaresMoreThan(req, REST_BODY_LIMIT_BYTES)) reject(bodyTooLarge(REST_BODY_LIMIT_BYTES));
    else
      jsonBody(req, res, (error?: unknown) => {
        if (error) reject(error);
        else if (req.body === undefined) reject(unreadBody(req));
        else resolve();
      });
  });

function unreadBody(req: Request): DomainError {
  const declared = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  return badRequest(
    declared
      ? 'The body could not be read: the connection ended before it arrived'
      : 'This operation takes a JSON body, and the request has none',
  );
}

/** The lines of a registry file sent to the domain at a time (appendDncRegistryLines). */
export const REGISTRY_LINES_PER_CHUNK = 50_000;

/** The media types a registry file may be sent as. */
const REGISTRY_FILE_TYPES = ['text/plain', 'application/octet-stream'];

/** A query parameter's one value (a repeated or bracketed one is a 400), or undefined. */
function oneQueryValue(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined || typeof value === 'string') return value;
  throw badRequestFor([{ path: name, message: 'expected one value' }]);
}

/** A comma-separated (or repeated) query parameter's values. */
function listQueryValue(req: Request, name: string): string[] | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((v) => typeof v === 'string'))
    throw badRequestFor([{ path: name, message: 'expected comma-separated values' }]);
  return (values as string[]).flatMap((v) => v.split(',')).filter((v) => v.trim() !== '');
}

/**
 * Reads what is left of a request body and drops it, so that an answer sent after a refused
 * line reaches a client still sending (it is authenticated: the key was checked first).
 */
function drained(req: Request): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    req.once('end', resolve).once('close', resolve).once('error', resolve);
    req.resume();
  });
}

/** Where src/app.ts mounts this router: the OpenAPI document's paths start with it. */
export const REST_API_PATH = '/api/v1';

/** The document's name of the operation a route serves: `GET /api/v1/contacts/{id}` for GET `/contacts/:id`. */
const operationName = (method: string, routePath: string) =>
  `${method === 'HEAD' ? 'GET' : method.toUpperCase()} ${REST_API_PATH}${routePath.replace(/:(\w+)/g, '{$1}')}`;

/** The query parameters each operation takes (`GET /api/v1/contacts/{id}` → names): the OpenAPI document's, printed from the operations' zod schemas. */
type QueryParameters = Map<string, readonly string[]>;

/**
 * A query parameter the operation does not take is a 400 naming it, as an unknown body field
 * is: `?serachTerm=ada` must not list every contact. Names are the query parser's top-level
 * keys, so a repeated or bracketed parameter (`status=a&status=b`, `status[]=a`) is its one
 * name. Checked for every route here, from the document, so a new operation cannot forget it.
 */
function refuseUnknownQueryParameters(parameters: QueryParameters, operation: string, query: Query): void {
  const known = parameters.get(operation) ?? [];
  const unknown = Object.keys(query).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const message = `unknown query parameter (this operation takes ${known.length > 0 ? known.join(', ') : 'none'})`;
  throw badRequestFor(unknown.slice(0, 20).map((path) => ({ path, message })));
}

/** Fails the start when a route serves an operation the OpenAPI document does not describe. */
function assertDocumented(router: Router, parameters: QueryParameters): void {
  for (const layer of router.stack) {
    if (!layer.route) continue;
    for (const step of layer.route.stack) {
      const name = operationName(step.method, layer.route.path);
      if (step.method && !parameters.has(name))
        throw new Error(`${name} is served but not described in the OpenAPI document (src/rest/openapi.ts)`);
    }
  }
}

/**
 * The API's routes. The reads of contacts (by id, by external ID, a list page, a CSV page) are
 * also in `direct`: the front door answers their GETs and HEADs itself (src/http/front-door.ts).
 */
export function restRouter(services: Services): { router: Router; direct: DirectRoutes } {
  const router = Router();
  const direct = new DirectRoutes(REST_API_PATH);
  const queryParameters = queryParametersByOperation(openApiDocument());
  const idempotently = idempotentWrites(services);
  /** The query check of a request Express routed: its operation is its method and route. */
  const refuseUnknownQueryOf = (req: Request) =>
    refuseUnknownQueryParameters(queryParameters, operationName(req.method, String(req.route?.path)), req.query);
  // An answer that shows a webhook secret is kept for a replay encrypted, as the secret is.
  const secretsKey = services.webhooks?.secretsKey ?? null;
  const sealed: AnswerSeal | undefined = secretsKey
    ? { seal: (body) => encryptSecret(body, secretsKey), open: (stored) => decryptSecret(stored, secretsKey) }
    : undefined;
  const route =
    (handler: Handler, { body = false, showsSecret = false } = {}) =>
    async (req: Request, res: Response) => {
      const ctx = await keyedRequestContext(services, req, res);
      refuseUnknownQueryOf(req);
      // A malformed Idempotency-Key is refused before the body is read; a well-formed one
      // makes the write run once per key (a retry gets the first answer).
      const key = idempotencyKeyOf(req);
      if (body) await readJsonBody(req, res);
      await idempotently(ctx, key, req, res, () => handler(ctx, req, res), showsSecret ? sealed : undefined);
    };
  const routeWithBody = (handler: Handler) => route(handler, { body: true });
  /**
   * A read answered from its path and query alone, with the same key check, key rate limit and
   * query check as every route: one handler, for this router and for the front door.
   */
  const read = (
    path: string,
    answer: (ctx: RequestContext, res: EdgeResponse, params: Params, query: Query) => Promise<void>,
  ) => {
    const operation = operationName('GET', path);
    const handler: DirectHandler = async (req, res, params, query) => {
      const ctx = await keyedRequestContext(services, req, res);
      refuseUnknownQueryParameters(queryParameters, operation, query);
      await answer(ctx, res, params, query);
    };
    direct.get(path, handler);
    router.get(path, (req, res) => handler(req, res, req.params as Params, req.query as Query));
  };
  const id = (req: Request, name = 'id') => String(req.params[name]);

  router.get(
    '/workflows',
    route(async (ctx, req, res) => {
      const { workflows } = await runOperation(ctx, Operations.listWorkflows, pageVariables(req.query));
      res.json({ data: workflows.data, nextToken: workflows.nextToken });
    }),
  );

  // A workflow's enrollments: listed, started for existing contacts (a job), stopped.
  router.get(
    '/workflows/:id/enrollments',
    route(async (ctx, req, res) => {
      const { workflowEnrollments } = await runOperation(ctx, Operations.listWorkflowEnrollments, {
        workflowId: id(req),
        ...enrollmentPageVariables(req.query),
      });
      res.json({ data: workflowEnrollments.data, nextToken: workflowEnrollments.nextToken });
    }),
  );
  router.post(
    '/workflows/:id/enrollments',
    routeWithBody(async (ctx, req, res) => {
      const { enrollWorkflowContacts: job } = await runOperation(ctx, Operations.enrollWorkflowContacts, {
        workflowId: id(req),
        input: req.body ?? null,
      });
      res.status(202).location(`/api/v1/enrollment-jobs/${job.id}`).json(job);
    }),
  );
  router.get(
    '/enrollment-jobs/:id',
    route(async (ctx, req, res) => {
      const { enrollmentJob } = await runOperation(ctx, Operations.getEnrollmentJob, { id: id(req) });
      res.json(enrollmentJob);
    }),
  );
  router.post(
    '/workflows/:id/enrollments/stop',
    routeWithBody(async (ctx, req, res) => {
      const { stopWorkflowEnrollments } = await runOperation(ctx, Operations.stopWorkflowEnrollments, {
        workflowId: id(req),
        input: req.body ?? null,
      });
      res.json(stopWorkflowEnrollments);
    }),
  );
  router.get(
    '/workflows/:id/results',
    route(async (ctx, req, res) => {
      const { workflowResults } = await runOperation(
        ctx,
        Operations.getWorkflowResults,
        workflowResultsVariables(id(req), req.query),
      );
      res.json(workflowResults);
    }),
  );

  router.put(
    '/contacts/upsert',
    routeWithBody(async (ctx, req, res) => {
      const { upsertContact } = await runOperation(ctx, Operations.upsertContact, { input: req.body ?? null });
      res.status(upsertContact.created ? 201 : 200).json(upsertContact.contact);
    }),
  );

  router.post(
    '/contacts/bulk',
    routeWithBody(async (ctx, req, res) => {
      const { importContacts } = await runOperation(ctx, Operations.importContacts, { input: req.body ?? null });
      res.status(202).json(importContacts);
    }),
  );

  router.post(
    '/contacts/bulk-update',
    routeWithBody(async (ctx, req, res) => {
      const { startBulkUpdate } = await runOperation(ctx, Operations.bulkUpdateContacts, { input: req.body ?? null });
      res.status(202).json(startBulkUpdate);
    }),
  );

  router.get(
    '/imports',
    route(async (ctx, req, res) => {
      const { imports } = await runOperation(ctx, Operations.listImports, pageVariables(req.query));
      res.json(restPage(imports));
    }),
  );

  router.get(
    '/imports/:id',
    route(async (ctx, req, res) => {
      const data = await runOperation(ctx, Operations.getImport, { id: String(req.params.id) });
      res.json(data.import);
    }),
  );

  router.get(
    '/bulk-updates/:id',
    route(async (ctx, req, res) => {
      const data = await runOperation(ctx, Operations.getBulkUpdate, { id: String(req.params.id) });
      res.json(data.bulkUpdate);
    }),
  );

  read('/contacts', async (ctx, res, _params, query) => {
    const { contacts } = await runOperation(ctx, Operations.listContacts, contactListVariables(query));
    sendJson(res, 200, restPage(contacts));
  });

  read('/contacts/csv', async (ctx, res, _params, query) => {
    const { contacts } = await runOperation(ctx, Operations.listContacts, contactListVariables(query));
    if (contacts.nextToken) res.setHeader('x-next-token', contacts.nextToken);
    sendBody(res, 200, 'text/csv; charset=utf-8', contactsToCsv(contacts.data));
  });

  router.get(
    '/contacts/source/:sourceKind/external-id/:externalId/calls',
    route(async (ctx, req, res) => {
      const { contactCalls } = await runOperation(ctx, Operations.listContactCalls, {
        ...externalIdPath(req.params),
        ...pageVariables(req.query),
      });
      res.json(restPage(contactCalls));
    }),
  );

  router.get(
    '/calls/audit.csv',
    route(async (ctx, req, res) => {
      const { callAudit } = await runOperation(ctx, Operations.listCallAudit, callAuditVariables(req.query));
      if (callAudit.nextToken) res.setHeader('x-next-token', callAudit.nextToken);
      res.type('text/csv; charset=utf-8').send(callAuditToCsv(callAudit.data));
    }),
  );

  router.get(
    '/calls/:id/transcript',
    route(async (ctx, req, res) => {
      const { callTranscript } = await runOperation(ctx, Operations.getCallTranscript, { id: String(req.params.id) });
      res.json(callTranscript);
    }),
  );

  read('/contacts/source/:sourceKind/external-id/:externalId', async (ctx, res, params) => {
    const data = await runOperation(ctx, Operations.getContactByExternalId, externalIdPath(params));
    sendJson(res, 200, data.contactByExternalId);
  });

  router.patch(
    '/contacts/source/:sourceKind/external-id/:externalId',
    routeWithBody(async (ctx, req, res) => {
      const data = await runOperation(ctx, Operations.patchContactByExternalId, {
        ...externalIdPath(req.params),
        input: req.body ?? null,
      });
      res.json(data.patchContactByExternalId);
    }),
  );

  // Erasure: 204 and no body once the contact and its personal data are gone.
  router.delete(
    '/contacts/source/:sourceKind/external-id/:externalId',
    route(async (ctx, req, res) => {
      await runOperation(ctx, Operations.deleteContactByExternalId, {
        ...externalIdPath(req.params),
        ...blockVariable(req.query),
      });
      res.status(204).end();
    }),
  );

  read('/contacts/:id', async (ctx, res, params) => {
    const data = await runOperation(ctx, Operations.getContact, { id: params.id });
    sendJson(res, 200, data.contact);
  });

  router.delete(
    '/contacts/:id',
    route(async (ctx, req, res) => {
      await runOperation(ctx, Operations.deleteContact, { id: String(req.params.id), ...blockVariable(req.query) });
      res.status(204).end();
    }),
  );

  router.post(
    '/webhook-endpoints',
    route(
      async (ctx, req, res) => {
        const data = await runOperation(ctx, Operations.createWebhookEndpoint, { input: req.body ?? null });
        const endpoint = data.createWebhookEndpoint;
        res.status(201).location(`/api/v1/webhook-endpoints/${endpoint.id}`).json(endpoint);
      },
      { body: true, showsSecret: true },
    ),
  );

  router.get(
    '/webhook-endpoints',
    route(async (ctx, req, res) => {
      const { webhookEndpoints } = await runOperation(ctx, Operations.listWebhookEndpoints, pageVariables(req.query));
      res.json(restPage(webhookEndpoints));
    }),
  );

  router.get(
    '/webhook-endpoints/:id',
    route(async (ctx, req, res) => {
      const data = await runOperation(ctx, Operations.getWebhookEndpoint, { id: id(req) });
      res.json(data.webhookEndpoint);
    }),
  );

  router.patch(
    '/webhook-endpoints/:id',
    routeWithBody(async (ctx, req, res) => {
      const data = await runOperation(ctx, Operations.updateWebhookEndpoint, { id: id(req), input: req.body ?? null });
      res.json(data.updateWebhookEndpoint);
    }),
  );

  router.delete(
    '/webhook-endpoints/:id',
    route(async (ctx, req, res) => {
      await runOperation(ctx, Operations.deleteWebhookEndpoint, { id: id(req) });
      res.status(204).end();
    }),
  );

  router.post(
    '/webhook-endpoints/:id/rotate-secret',
    route(
      async (ctx, req, res) => {
        const data = await runOperation(ctx, Operations.rotateWebhookEndpointSecret, { id: id(req) });
        res.json(data.rotateWebhookEndpointSecret);
      },
      { showsSecret: true },
    ),
  );

  router.get(
    '/webhook-endpoints/:id/deliveries',
    route(async (ctx, req, res) => {
      const { webhookDeliveries } = await runOperation(ctx, Operations.listWebhookDeliveries, {
        endpointId: id(req),
        ...deliveryListVariables(req.query),
      });
      res.json(restPage(webhookDeliveries));
    }),
  );

  router.post(
    '/webhook-endpoints/:id/deliveries/:deliveryId/retry',
    route(async (ctx, req, res) => {
      const data = await runOperation(ctx, Operations.retryWebhookDelivery, {
        endpointId: id(req),
        deliveryId: id(req, 'deliveryId'),
      });
      res.status(202).json(data.retryWebhookDelivery);
    }),
  );

  router.get(
    '/calling-policy',
    route(async (ctx, _req, res) => {
      const { callingPolicy } = await runOperation(ctx, Operations.getCallingPolicy, {});
      res.json(callingPolicy);
    }),
  );

  router.put(
    '/calling-policy',
    routeWithBody(async (ctx, req, res) => {
      const { setCallingPolicy } = await runOperation(ctx, Operations.setCallingPolicy, { input: req.body ?? null });
      res.json(setCallingPolicy);
    }),
  );

  router.get(
    '/calling-policy/changes',
    route(async (ctx, req, res) => {
      const { callingPolicyChanges } = await runOperation(
        ctx,
        Operations.listCallingPolicyChanges,
        changesVariables(req.query),
      );
      res.json({ data: callingPolicyChanges });
    }),
  );

  // A contact's consents and dialing decision, by id and by external ID: the same operations.
  const contactPaths = [
    ['/contacts/:id', (req: Request) => ({ contactId: id(req) })],
    ['/contacts/source/:sourceKind/external-id/:externalId', (req: Request) => externalIdPath(req.params)],
  ] as const;
  for (const [path, contact] of contactPaths) {
    router.get(
      `${path}/consents`,
      route(async (ctx, req, res) => {
        const { contactConsents } = await runOperation(ctx, Operations.listContactConsents, contact(req));
        res.json({ data: contactConsents });
      }),
    );
    router.post(
      `${path}/consents`,
      routeWithBody(async (ctx, req, res) => {
        const { addContactConsent } = await runOperation(ctx, Operations.addContactConsent, {
          ...contact(req),
          input: req.body ?? null,
        });
        res.status(201).json(addContactConsent);
      }),
    );
    router.post(
      `${path}/consents/revoke`,
      routeWithBody(async (ctx, req, res) => {
        const { revokeContactConsents } = await runOperation(ctx, Operations.revokeContactConsents, {
          ...contact(req),
          input: req.body ?? null,
        });
        res.json({ data: revokeContactConsents });
      }),
    );
    router.get(
      `${path}/dialing`,
      route(async (ctx, req, res) => {
        const { contactDialing } = await runOperation(ctx, Operations.getContactDialing, contact(req));
        res.json(contactDialing);
      }),
    );
  }

  // A do-not-call registry file, streamed: the key and the query are checked from the headers,
  // the import is started (the registry and the date checked), and only then is the body read,
  // REGISTRY_LINES_PER_CHUNK lines at a time, into the staged import; a refused line or a
  // failure abandons it, so nothing of it is stored. It takes no Idempotency-Key: sending the
  // file again replaces the same copies again.
  router.post('/dnc-registries/:registry/imports', async (req, res) => {
    const ctx = await keyedRequestContext(services, req, res);
    refuseUnknownQueryOf(req);
    const type = req.is(REGISTRY_FILE_TYPES);
    if (!type)
      throw badRequest(
        type === null
          ? 'This operation takes the registry file as its body, and the request has none'
          : `The body is the registry file as text: Content-Type ${REGISTRY_FILE_TYPES.join(' or ')}`,
      );
    const { startDncRegistryImport: staged } = await runOperation(ctx, Operations.startDncRegistryImport, {
      registry: id(req, 'registry'),
      downloadedAt: oneQueryValue(req, 'downloadedAt') ?? '',
      areaCodes: listQueryValue(req, 'areaCodes'),
    });
    try {
      let firstLine = 1;
      for await (const lines of textLineChunks(req.iterator({ destroyOnReturn: false }), REGISTRY_LINES_PER_CHUNK)) {
        await runOperation(ctx, Operations.appendDncRegistryLines, { importId: staged.id, firstLine, lines });
        firstLine += lines.length;
      }
      const { finishDncRegistryImport } = await runOperation(ctx, Operations.finishDncRegistryImport, {
        importId: staged.id,
      });
      res.status(201).json(finishDncRegistryImport);
    } catch (error) {
      await runOperation(ctx, Operations.abandonDncRegistryImport, { importId: staged.id }).catch(() => {});
      await drained(req);
      throw error;
    }
  });

  router.get(
    '/dnc-registries',
    route(async (ctx, _req, res) => {
      const { dncRegistryCopies } = await runOperation(ctx, Operations.listDncRegistryCopies, {});
      res.json({ data: dncRegistryCopies });
    }),
  );

  assertDocumented(router, queryParameters);
  return { router, direct };
}
