// A calling Account's fixture: a live agent with a published workflow, and a dialer that applies
// the simulated calls' events (placed by runDialerOnce, ended as scripted, with transcripts).
import type { TestServer } from './test-server.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import { createSimulatedTelephony, type SimulatedOutcome } from '../../src/calls/telephony/simulator.adapter.js';
import { applyTelephonyEvent } from '../../src/domain/calls/call-events.service.js';
import { DEFAULT_WORKING_HOURS, type WorkingHours } from '../../src/domain/calls/calling-hours.rules.js';

export interface CallingSetupOptions {
  /** The agent's working hours (default: the default week), in its `timezone` (default America/Chicago). */
  workingHours?: WorkingHours;
  timezone?: string;
  attemptLimit?: number;
  /** The agent's and the workflow's names (default Ava and Calls). */
  agentName?: string;
  workflowName?: string;
}

/** A workflow with a live agent of the Account, and a dialer that applies the simulated calls' events. */
export async function callingSetup(server: TestServer, accountId: string, options: CallingSetupOptions = {}) {
  const prisma = server.service.services.db.prisma;
  const agent = await prisma.agent.create({
    data: {
      createdAt: server.now(),
      updatedAt: server.now(),
      accountId,
      name: options.agentName ?? 'Ava',
      status: 'live',
      timezone: options.timezone ?? 'America/Chicago',
      defaultLanguage: 'en-US',
      attemptLimit: options.attemptLimit ?? 3,
      workingHours: (options.workingHours ?? DEFAULT_WORKING_HOURS) as object,
      retryDelayMinutes: 60,
      callNewContactsImmediately: true,
    },
  });
  const workflow = await prisma.workflow.create({
    data: {
      createdAt: server.now(),
      updatedAt: server.now(),
      accountId,
      agentId: agent.id,
      name: options.workflowName ?? 'Calls',
      status: 'published',
    },
  });
  /** Dials every due contact once; a scripted phone's call ends as scripted (90 s unless said), with its transcript. */
  async function dial(script: Record<string, SimulatedOutcome> = {}) {
    const telephony = createSimulatedTelephony({
      sink: (event) => applyTelephonyEvent(server.service.services, event).then(() => undefined),
      clock: server.service.services.clock,
      delayMs: 0,
      script: Object.fromEntries(Object.entries(script).map(([phone, o]) => [phone, { durationSeconds: 90, ...o }])),
    });
    const run = await runDialerOnce(server.service.services, telephony);
    await telephony.settled();
    return run.placed;
  }
  return { agentId: agent.id, workflowId: workflow.id, dial };
}
