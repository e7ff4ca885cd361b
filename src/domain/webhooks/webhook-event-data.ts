// The `data` of each webhook event, rendered when the event is fanned out, by the same shapes
// the REST API answers with (docs/webhooks.md):
// - call.ended: the "when a call ends" trigger's outputs, plus `call`, the call record as a
//   contact's calls list shows it;
// - contact.created, contact.updated: the contact, as GET /api/v1/contacts/{id} answers;
// - contact.deleted: { id, sourceKind, externalId, blocked, deletedAt } (the contact is gone;
//   externalId, the integrator's own key, is the one identifier kept);
// - enrollment.started, enrollment.ended: the enrollment, as GET /workflows/{id}/enrollments
//   shows it (contactId null once its contact is erased);
// - import.completed, bulk_update.completed: the job, as GET /imports/{id} and
//   /bulk-updates/{id} answer.
// The outbox stores only the subject's id (webhook-outbox.store.ts), so contact data is read
// once, here, when it is about to be sent: a contact changed twice in a moment is sent as it
// stands then, twice. An event whose subject is gone by then (erased) is not sent, and neither
// is an agent-builder test call (it is nobody's contact).
import type { Services } from '../context.js';
import type { CallEndedEvent } from '../calls/call-events.service.js';
import { CALL_RECORD_FIELDS, toCallRecords } from '../calls/calls-read.service.js';
import { bulkUpdateJobResponse, importJobResponse } from '../contacts/contact-jobs.service.js';
import { toContactResponse } from '../contacts/contacts.rules.js';
import { findContactsByIds } from '../contacts/contacts.store.js';
import { enrollmentViewsWithIds } from '../enrollment/workflow-enrollments.service.js';
import { outputsOf } from '../monday/call-ended-outputs.rules.js';
import { itemsOfContacts } from '../monday/trigger-deliveries.store.js';
import { directSql } from '../../db/sql-client.js';
import type { UnfannedEvent } from './webhook-deliveries.store.js';

export interface EventData {
  data: unknown;
  /** The contact the event is about, for erasure; null for job events. */
  contactId: string | null;
}

type DataServices = Pick<Services, 'db'>;

/** Each event's data by event id; an event left out is not sent (see the header). */
export async function renderEventData(
  services: DataServices,
  events: UnfannedEvent[],
): Promise<Map<string, EventData>> {
  const out = new Map<string, EventData>();
  const ofType = (type: string) => events.filter((e) => e.type === type);
  const db = directSql(services.db.sql);

  const calls = ofType('call.ended').filter((e) => !(e.payload as unknown as CallEndedEvent).testCall);
  if (calls.length > 0) {
    const ended = calls.map((e) => e.payload as unknown as CallEndedEvent);
    const [stored, items] = await Promise.all([
      services.db.prisma.call.findMany({
        where: { id: { in: ended.map((c) => c.callId) } },
        select: CALL_RECORD_FIELDS,
      }),
      itemsOfContacts(db, [...new Set(ended.map((c) => c.contactId))]),
    ]);
    const records = new Map((await toCallRecords(services, stored)).map((r) => [r.id, r]));
    const itemOf = new Map(items.map((i) => [i.contactId, i]));
    for (const event of calls) {
      const call = event.payload as unknown as CallEndedEvent;
      const record = records.get(call.callId);
      if (record)
        out.set(event.id, {
          data: { ...outputsOf(call, itemOf.get(call.contactId)), call: record },
          contactId: call.contactId,
        });
    }
  }

  const contactEvents = events.filter((e) => e.type === 'contact.created' || e.type === 'contact.updated');
  if (contactEvents.length > 0) {
    const ids = [...new Set(contactEvents.map((e) => String(e.payload.contactId)))];
    const contacts = new Map((await findContactsByIds(db, ids)).map((c) => [c.id, c]));
    for (const event of contactEvents) {
      const contact = contacts.get(String(event.payload.contactId));
      if (contact) out.set(event.id, { data: toContactResponse(contact), contactId: contact.id });
    }
  }

  for (const event of ofType('contact.deleted')) {
    const { contactId, sourceKind, externalId, blocked, deletedAt } = event.payload;
    out.set(event.id, {
      data: { id: contactId, sourceKind, externalId: externalId ?? null, blocked: blocked === true, deletedAt },
      contactId: null,
    });
  }

  const enrollmentEvents = events.filter((e) => e.type === 'enrollment.started' || e.type === 'enrollment.ended');
  if (enrollmentEvents.length > 0) {
    const ids = [...new Set(enrollmentEvents.map((e) => String(e.payload.enrollmentId)))];
    const enrollments = new Map((await enrollmentViewsWithIds(db, ids)).map((v) => [v.id, v]));
    for (const event of enrollmentEvents) {
      const enrollment = enrollments.get(String(event.payload.enrollmentId));
      // contactId: an erasure of the contact deletes the delivery (it names the contact).
      if (enrollment) out.set(event.id, { data: enrollment, contactId: enrollment.contactId });
    }
  }

  const imports = ofType('import.completed');
  if (imports.length > 0) {
    const jobs = await services.db.prisma.importJob.findMany({
      where: { id: { in: imports.map((e) => String(e.payload.importId)) } },
    });
    const byId = new Map(jobs.map((j) => [j.id, j]));
    for (const event of imports) {
      const job = byId.get(String(event.payload.importId));
      if (job) out.set(event.id, { data: importJobResponse(job), contactId: null });
    }
  }

  const updates = ofType('bulk_update.completed');
  if (updates.length > 0) {
    const jobs = await services.db.prisma.bulkUpdateJob.findMany({
      where: { id: { in: updates.map((e) => String(e.payload.updateId)) } },
    });
    const byId = new Map(jobs.map((j) => [j.id, j]));
    for (const event of updates) {
      const job = byId.get(String(event.payload.updateId));
      if (job) out.set(event.id, { data: bulkUpdateJobResponse(job), contactId: null });
    }
  }
  return out;
}
