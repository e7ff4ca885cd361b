// Contacts: search and filter as the list API does, and one contact with its calls and their
// transcripts.
import type { Router } from 'express';
import type { RequestContext } from '../../domain/context.js';
import { asDomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleOperations } from '../../graphql/operations/console.js';
import { Operations } from '../../graphql/operations/index.js';
import { contactListVariables } from '../../graphql/operations/variables.js';
import { type ConsoleKit, fieldErrors, send } from '../console-kit.js';
import { type CallView, type ContactDetail, ContactPage, type NextCallView } from '../pages/contact.js';
import { type ContactRow, ContactsPage } from '../pages/contacts.js';
import { NotFoundPage } from '../pages/not-found.js';

export function contactRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
  router.get(
    '/contacts',
    withSession(async (req, res, signed) => {
      const query = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
      const filters = { searchTerm: query('searchTerm'), status: query('status'), sourceKind: query('sourceKind') };
      const values = {
        ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value)),
        nextToken: query('nextToken'),
        limit: CONTACTS_PAGE,
      };
      const viewer = viewerOf(signed);
      try {
        const { contacts } = await runOperation(signed.ctx, Operations.listContacts, contactListVariables(values));
        const next = contacts.nextToken
          ? `/console/contacts?${new URLSearchParams({ ...definedOnly(filters), nextToken: contacts.nextToken })}`
          : null;
        send(res, 200, ContactsPage({ viewer, filters, contacts: contacts.data as ContactRow[], nextPage: next }));
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request') throw error;
        const errors = fieldErrors(failure);
        const general = Object.keys(errors).length === 0 ? failure.message : undefined;
        send(res, 400, ContactsPage({ viewer, filters, contacts: [], nextPage: null, errors, error: general }));
      }
    }),
  );

  router.get(
    '/contacts/:id',
    withSession(async (req, res, signed) => {
      const viewer = viewerOf(signed);
      let contact: ContactDetail;
      try {
        contact = (await runOperation(signed.ctx, Operations.getContact, { id: String(req.params.id) }))
          .contact as ContactDetail;
      } catch (error) {
        const code = asDomainError(error)?.code;
        if (code !== 'not_found' && code !== 'bad_request') throw error;
        send(res, 404, NotFoundPage({ viewer, what: 'No such contact in your Account.', back: '/console/contacts' }));
        return;
      }
      const [{ contactCalls }, workflowName, { accountContactNextCall }] = await Promise.all([
        runOperation(signed.ctx, Operations.listContactCalls, {
          sourceKind: contact.sourceKind,
          externalId: contact.externalId ?? contact.id,
          limit: 100,
        }),
        contact.assignedWorkflowId ? workflowNameOf(signed.ctx, contact.assignedWorkflowId) : Promise.resolve(null),
        runOperation(signed.ctx, ConsoleOperations.contactNextCall, { contactId: contact.id }),
      ]);
      const calls: CallView[] = await Promise.all(
        contactCalls.data.map(async (call) => ({
          id: call.id,
          status: call.status,
          result: call.result ?? null,
          startedAt: (call.startedAt as string | null) ?? null,
          durationSeconds: call.durationSeconds ?? null,
          recordingUrl: call.recordingUrl ?? null,
          utterances: call.transcriptAvailable
            ? (((await runOperation(signed.ctx, Operations.getCallTranscript, { id: call.id })).callTranscript
                ?.utterances as CallView['utterances']) ?? [])
            : [],
        })),
      );
      const nextCall = (accountContactNextCall as NextCallView | null) ?? null;
      const now = signed.ctx.clock.now().toISOString();
      send(res, 200, ContactPage({ viewer, contact, workflowName, nextCall, now, calls }));
    }),
  );
}

const CONTACTS_PAGE = 50;

const definedOnly = (values: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => Boolean(entry[1])));

/** The workflow's name, from the Account's workflows (null when gone). */
async function workflowNameOf(ctx: RequestContext, id: string): Promise<string | null> {
  let nextToken: string | undefined;
  do {
    const { workflows } = await runOperation(ctx, Operations.listWorkflows, { limit: 100, nextToken });
    const found = workflows.data.find((workflow) => workflow.id === id);
    if (found) return found.name;
    nextToken = workflows.nextToken ?? undefined;
  } while (nextToken);
  return null;
}
