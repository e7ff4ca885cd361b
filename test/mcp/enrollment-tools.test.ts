// workflow_enrollments_list and enrollment_job_get through the SDK's Client against a real
// listening server, on each database: their results are the REST bodies of
// GET /api/v1/workflows/{id}/enrollments (every page, each state) and
// GET /api/v1/enrollment-jobs/{id}, and each failure is the REST error body (an unknown workflow,
// job, or another Account's is not_found, a bad state or id a bad_request).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone, upsertOk } from '../support/api-helpers.js';
import { callingSetup } from '../support/calling-setup.js';
import { writtenConsent } from '../support/consent.js';
import { testDatabaseKinds } from '../support/databases.js';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { callError, callOk, connect, type Connected, withoutRequestId } from './mcp-helpers.js';

describe.each(testDatabaseKinds())('workflow_enrollments_list on %s', (kind) => {
  let server: TestServer;
  let mine: TestAccount;
  let theirs: TestAccount;
  let mcp: Connected;
  let workflowId: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    [mine, theirs] = await Promise.all([server.createAccount(), server.createAccount()]);
    ({ workflowId } = await callingSetup(server, mine.accountId));
    const contacts = [];
    for (let i = 0; i < 3; i++)
      contacts.push(await upsertOk(server, mine.apiKey, { phone: uniquePhone(), assignmentOptions: { workflowId } }));
    const stopped = await server.request(mine.apiKey, 'POST', `/api/v1/workflows/${workflowId}/enrollments/stop`, {
      contactIds: [contacts[0].id],
    });
    expect(stopped.json).toEqual({ stopped: 1, notActive: [] });
    mcp = await connect(server, mine.apiKey);
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  const rest = async (query: string, key = mine.apiKey) =>
    server.request(key, 'GET', `/api/v1/workflows/${workflowId}/enrollments${query}`);

  it('answers the REST body, page by page and by state', async () => {
    const all = await callOk(mcp.client, 'workflow_enrollments_list', { workflowId });
    expect(all).toEqual((await rest('')).json);
    expect(all.data).toHaveLength(3);
    const ended = await callOk(mcp.client, 'workflow_enrollments_list', { workflowId, state: 'ended' });
    expect(ended).toEqual((await rest('?state=ended')).json);
    expect(ended.data.map((e: { endReason: string }) => e.endReason)).toEqual(['stopped']);
    const first = await callOk(mcp.client, 'workflow_enrollments_list', { workflowId, limit: 2 });
    expect(first).toEqual((await rest('?limit=2')).json);
    const next = await callOk(mcp.client, 'workflow_enrollments_list', {
      workflowId,
      limit: 2,
      nextToken: first.nextToken,
    });
    expect(next).toEqual((await rest(`?limit=2&nextToken=${encodeURIComponent(first.nextToken)}`)).json);
    expect([...first.data, ...next.data].map((e: { id: string }) => e.id)).toEqual(
      all.data.map((e: { id: string }) => e.id),
    );
  });

  it("fails as REST does: not_found for an unknown workflow or another Account's, bad_request for a bad state", async () => {
    const unknown = randomUUID();
    const missing = await callError(mcp.client, 'workflow_enrollments_list', { workflowId: unknown });
    const restMissing = await server.request(mine.apiKey, 'GET', `/api/v1/workflows/${unknown}/enrollments`);
    expect(withoutRequestId(missing)).toEqual(withoutRequestId(restMissing.json));
    const other = await connect(server, theirs.apiKey);
    try {
      const theirsAnswer = await callError(other.client, 'workflow_enrollments_list', { workflowId });
      expect(theirsAnswer.code).toBe('not_found');
    } finally {
      await other.close();
    }
    const badState = await callError(mcp.client, 'workflow_enrollments_list', { workflowId, state: 'paused' });
    expect(badState.code).toBe('bad_request');
  });

  it('enrollment_job_get answers the job as GET /api/v1/enrollment-jobs/{id}; not_found as REST', async () => {
    // With consent: the calling rules would keep a US contact without it out (no_consent).
    const contact = await upsertOk(server, mine.apiKey, {
      phone: uniquePhone(),
      consent: writtenConsent(server.now()),
    });
    const started = await server.request(mine.apiKey, 'POST', `/api/v1/workflows/${workflowId}/enrollments`, {
      contactIds: [contact.id, randomUUID()],
    });
    expect(started.status, started.text).toBe(202);
    const jobId = (started.json as { id: string }).id;
    const done = await server.eventually(async () => {
      const job = await callOk(mcp.client, 'enrollment_job_get', { jobId });
      return job.status === 'done' ? job : undefined;
    });
    expect(done).toEqual((await server.request(mine.apiKey, 'GET', `/api/v1/enrollment-jobs/${jobId}`)).json);
    expect(done).toMatchObject({ matched: 2, enrolled: 1, notEnrolledCount: 1 });
    const unknown = randomUUID();
    const missing = await callError(mcp.client, 'enrollment_job_get', { jobId: unknown });
    const restMissing = await server.request(mine.apiKey, 'GET', `/api/v1/enrollment-jobs/${unknown}`);
    expect(withoutRequestId(missing)).toEqual(withoutRequestId(restMissing.json));
    const other = await connect(server, theirs.apiKey);
    try {
      expect((await callError(other.client, 'enrollment_job_get', { jobId })).code).toBe('not_found');
    } finally {
      await other.close();
    }
  });
});
