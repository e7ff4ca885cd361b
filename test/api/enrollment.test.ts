// Enrollment from upsert and bulk assignmentOptions: the contact fields it sets, the
// enrollment rows the dialer works from, and re-enrollment with and without reEnroll.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';

describe.each(testDatabaseKinds())('enrollment on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  async function admin(query: string, variables: Record<string, unknown>) {
    const res = await server.request(ADMIN_TOKEN, 'POST', '/graphql', { query, variables });
    return res.json as {
      data?: Record<string, any>;
      errors?: Array<{ message: string; extensions: { code: string } }>;
    };
  }

  async function agentAndWorkflow(accountId: string, attemptLimit = 4) {
    const agent = await admin(`mutation ($input: JSON!) { createAgent(input: $input) { id attemptLimit timezone } }`, {
      input: { accountId, name: 'Ava', status: 'live', timezone: 'america/chicago', attemptLimit },
    });
    expect(agent.errors).toBeUndefined();
    expect(agent.data!.createAgent.timezone).toBe('America/Chicago');
    const workflow = await admin(
      `mutation ($a: String!, $g: String) { createWorkflow(accountId: $a, name: "W", status: published, agentId: $g) { id agentId } }`,
      {
        a: accountId,
        g: agent.data!.createAgent.id,
      },
    );
    expect(workflow.data!.createWorkflow.agentId).toBe(agent.data!.createAgent.id);
    return { agentId: agent.data!.createAgent.id as string, workflowId: workflow.data!.createWorkflow.id as string };
  }

  const enrollments = (contactId: string) =>
    server.service.services.db.prisma.enrollment.findMany({ where: { contactId }, orderBy: { createdAt: 'asc' } });

  it('refuses an agent with an unknown time zone, language or bad working hours (400)', async () => {
    const { accountId } = await server.createAccount();
    for (const input of [
      { accountId, name: 'x', timezone: 'Mars/Base' },
      { accountId, name: 'x', defaultLanguage: 'Klingon' },
      { accountId, name: 'x', workingHours: { mon: [{ start: '17:00', end: '09:00' }] } },
      { accountId, name: 'x', attemptLimit: 0 },
    ]) {
      const res = await admin(`mutation ($input: JSON!) { createAgent(input: $input) { id } }`, { input });
      expect(res.errors?.[0].extensions.code).toBe('bad_request');
    }
  });

  it('copies the agent attempt limit, sets the enrollment fields and starts one active enrollment', async () => {
    const { accountId, apiKey } = await server.createAccount();
    const { workflowId } = await agentAndWorkflow(accountId, 4);
    const res = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+14155550101',
      assignmentOptions: { workflowId },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      assignedWorkflowId: workflowId,
      maxAttempts: 4,
      status: 'assigned',
      callCount: 0,
      lastCallAt: null,
      nextCallAt: null,
    });
    const rows = await enrollments(res.json.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ workflowId, active: true, attempts: 0, reEnroll: false, enforceCallNow: false });
  });

  it('ends the previous enrollment when the contact is enrolled elsewhere', async () => {
    const { accountId, apiKey } = await server.createAccount();
    const first = await agentAndWorkflow(accountId);
    const second = await agentAndWorkflow(accountId, 2);
    await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+14155550102',
      assignmentOptions: { workflowId: first.workflowId },
    });
    const res = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+14155550102',
      assignmentOptions: { workflowId: second.workflowId },
    });
    expect(res.json).toMatchObject({ assignedWorkflowId: second.workflowId, maxAttempts: 2 });
    const rows = await enrollments(res.json.id);
    expect(rows.map((r) => [r.workflowId, r.active])).toEqual([
      [first.workflowId, false],
      [second.workflowId, true],
    ]);
  });

  it('skips a contact the workflow already called unless reEnroll (with enforceCallNow) is sent', async () => {
    const { accountId, apiKey } = await server.createAccount();
    const { workflowId, agentId } = await agentAndWorkflow(accountId);
    const created = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+14155550103',
      assignmentOptions: { workflowId },
    });
    const contactId = created.json.id as string;
    const prisma = server.service.services.db.prisma;
    // The workflow called the contact once: a call and its effect on the contact.
    const lastCallAt = new Date('2026-11-20T15:00:00.000Z');
    await prisma.call.create({
      data: {
        createdAt: server.now(),
        id: randomUUID(),
        accountId,
        contactId,
        workflowId,
        agentId,
        status: 'ended',
        result: 'no_answer',
        startedAt: lastCallAt,
      },
    });
    await prisma.contact.update({
      where: { id: contactId },
      data: { lastCallAt, callCount: 1, status: 'not_answered' },
    });

    const again = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+14155550103',
      firstName: 'Again',
      assignmentOptions: { workflowId },
    });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({
      firstName: 'Again',
      lastCallAt: lastCallAt.toISOString(),
      callCount: 1,
      status: 'not_answered',
    });
    expect((await enrollments(contactId)).filter((e) => e.active)).toHaveLength(1);
    expect(await enrollments(contactId)).toHaveLength(1);

    const reEnrolled = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: '+14155550103',
      assignmentOptions: { workflowId, reEnroll: true, enforceCallNow: true },
    });
    // Re-enrollment keeps lastCallAt and callCount; nextCallAt is cleared; status only moves from none/not_assigned.
    expect(reEnrolled.json).toMatchObject({
      lastCallAt: lastCallAt.toISOString(),
      callCount: 1,
      nextCallAt: null,
      status: 'not_answered',
      assignedWorkflowId: workflowId,
    });
    const rows = await enrollments(contactId);
    expect(rows.map((r) => [r.active, r.reEnroll, r.enforceCallNow])).toEqual([
      [false, false, false],
      [true, true, true],
    ]);
  });

  it('restarts callCount and clears lastCallAt and nextCallAt on enrollment; reEnroll keeps the call history but clears nextCallAt', async () => {
    const { accountId, apiKey } = await server.createAccount();
    const first = await agentAndWorkflow(accountId, 4);
    const second = await agentAndWorkflow(accountId, 2);
    const third = await agentAndWorkflow(accountId, 7);
    const phone = '+14155550104';
    const created = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      assignmentOptions: { workflowId: first.workflowId },
    });
    const contactId = created.json.id as string;
    const prisma = server.service.services.db.prisma;
    // The first workflow called the contact three times; the latest report named a next attempt.
    const lastCallAt = new Date('2026-11-20T15:00:00.000Z');
    const nextCallAt = new Date('2026-11-21T15:00:00.000Z');
    await prisma.call.create({
      data: {
        createdAt: server.now(),
        id: randomUUID(),
        accountId,
        contactId,
        workflowId: first.workflowId,
        agentId: first.agentId,
        status: 'ended',
        result: 'callback_requested',
        startedAt: lastCallAt,
      },
    });
    await prisma.contact.update({
      where: { id: contactId },
      data: { lastCallAt, nextCallAt, callCount: 3, status: 'reached' },
    });

    // Enrolled elsewhere without reEnroll: a fresh start.
    const moved = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      assignmentOptions: { workflowId: second.workflowId },
    });
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({
      assignedWorkflowId: second.workflowId,
      maxAttempts: 2,
      callCount: 0,
      lastCallAt: null,
      nextCallAt: null,
      status: 'reached',
    });
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: contactId } })).toMatchObject({
      callCount: 0,
      lastCallAt: null,
      nextCallAt: null,
    });

    // More calls, then a re-enrollment (reEnroll with enforceCallNow): lastCallAt and callCount stay, nextCallAt goes.
    await prisma.contact.update({ where: { id: contactId }, data: { lastCallAt, nextCallAt, callCount: 2 } });
    const reEnrolled = await server.request(apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone,
      assignmentOptions: { workflowId: third.workflowId, reEnroll: true, enforceCallNow: true },
    });
    expect(reEnrolled.status).toBe(200);
    expect(reEnrolled.json).toMatchObject({
      assignedWorkflowId: third.workflowId,
      maxAttempts: 7,
      callCount: 2,
      lastCallAt: lastCallAt.toISOString(),
      nextCallAt: null,
    });
    expect(await prisma.contact.findUniqueOrThrow({ where: { id: contactId } })).toMatchObject({
      callCount: 2,
      lastCallAt,
      nextCallAt: null,
    });
    const rows = await enrollments(contactId);
    expect(rows.map((r) => [r.workflowId, r.active])).toEqual([
      [first.workflowId, false],
      [second.workflowId, false],
      [third.workflowId, true],
    ]);
  });

  it('enrolls bulk-imported contacts the same way', async () => {
    const { accountId, apiKey } = await server.createAccount();
    const { workflowId } = await agentAndWorkflow(accountId, 5);
    const res = await server.request(apiKey, 'POST', '/api/v1/contacts/bulk', {
      contacts: [1, 2, 3].map((i) => ({ sourceKind: 'csv', externalId: `e${i}`, phone: `+1415555020${i}` })),
      assignmentOptions: { workflowId },
    });
    expect(res.json.accepted).toBe(3);
    const list = await server.eventually(async () => {
      const page = await server.request(apiKey, 'GET', `/api/v1/contacts?assignedWorkflowId=${workflowId}`);
      return page.json.data.length === 3 ? page.json.data : null;
    });
    for (const contact of list) {
      expect(contact).toMatchObject({ maxAttempts: 5, status: 'assigned' });
      expect((await enrollments(contact.id)).map((e) => e.active)).toEqual([true]);
    }
  });
});
