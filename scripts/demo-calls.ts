// `npm run demo:calls`: real calls through Vapi and Retell, offline. It starts an emulator of
// each provider (test/support/vapi-emulator, test/support/retell-emulator: their APIs, as the
// official SDKs call them, and their signed webhooks) and the whole service in this process, on
// an in-memory database with the demo account and the background dialer, with the provider API
// URLs pointed at the emulators. Then it plays the story: an operator stores the Account's Vapi
// and Retell keys and creates an agent and a published workflow on each provider over GraphQL;
// one contact is enrolled on each through the REST API, with the contact's prior express written
// consent (the calling rules call no US contact for telemarketing without it); the dialer places
// both calls through the SDKs; each emulator ends its call as scripted and sends its signed webhooks; the REST API
// shows each contact, its call and the transcript; forged webhooks are refused. Any step that
// does not go as described stops the demo with a message and a non-zero exit code.
//
// Time: the service and both emulators read one clock, the demo's. It is the real time when the
// law lets the dialer call the contacts then (their San Francisco numbers: 09:00-21:00 in
// California), else it starts at the next weekday 10:00 in Los Angeles. A provider reports a
// call only once it is over (it rings, is picked up, talks for its scripted length, ends, and is
// analysed), so instead of waiting the calls out in real time the demo moves its clock on to
// when both providers report them.

// Before anything imports the logger: the project's modules are imported in main(), dynamically.
process.env.LOG_LEVEL = 'silent';

import { randomBytes } from 'node:crypto';
import type { VapiEmulator } from '../test/support/vapi-emulator/index.js';
import type { RetellEmulator } from '../test/support/retell-emulator/index.js';
import type { RunningService } from '../src/service.js';
import { check, DemoFailure, runDemo, say, step, until } from './demo-steps.js';

const DEADLINE_MS = 90_000;
type Provider = 'vapi' | 'retell';

/** What each provider's agent is called there: a Vapi assistant and phone number id, a Retell agent and from-number. */
const PROVIDER_AGENT = {
  vapi: {
    name: 'Ava (Vapi)',
    providerAgentId: '5c2f7d0e-8a41-4b6e-9d1c-2f3a4b5c6d01',
    providerPhoneNumber: '5c2f7d0e-8a41-4b6e-9d1c-2f3a4b5c6df0',
    fromNumber: '+14155550199',
  },
  retell: {
    name: 'Alex (Retell)',
    providerAgentId: 'agent_7f3a9c2e41d84b60a5e1',
    providerPhoneNumber: '+14155550177',
    fromNumber: '+14155550177',
  },
} as const;

/** The contacts' zone: both have San Francisco numbers. */
const CONTACT_ZONE = 'America/Los_Angeles';

/** The contact enrolled on each provider's workflow. */
const CONTACTS = {
  vapi: {
    externalId: 'crm-1001',
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '+14155552672',
    customFields: { company: 'Analytical Engines', plan: 'gold' },
  },
  retell: {
    externalId: 'crm-1002',
    firstName: 'Grace',
    lastName: 'Hopper',
    phone: '+14155552671',
    customFields: { company: 'Navy Labs', plan: 'silver' },
  },
} as const;

const VAPI_TRANSCRIPT = [
  {
    role: 'assistant' as const,
    message: 'Hi Ada, this is Ava from Contactline. Do you have a minute about the Analytical Engines demo?',
  },
  { role: 'user' as const, message: 'Yes, I wanted to see it. Can we book Thursday?' },
  { role: 'assistant' as const, message: 'Done: Thursday at two. You will get the invitation by email.' },
  { role: 'user' as const, message: 'Perfect, thank you.' },
];
const RETELL_TRANSCRIPT = [
  { role: 'agent' as const, content: 'Hi Grace, this is Alex from Contactline. Is now a good time?' },
  { role: 'user' as const, content: 'Not really, I am in a meeting. Could you call me back tomorrow at ten?' },
  { role: 'agent' as const, content: 'Of course, tomorrow at ten. Talk to you then.' },
];

/**
 * The demo's clock: the process clock (or a later start, see main()), moved forward when the demo
 * lets time pass (the calls' lives) instead of waiting. The service and both emulators read it.
 */
const demoClock = {
  aheadMs: 0,
  now(): Date {
    return new Date(Date.now() + demoClock.aheadMs);
  },
  /** Time passes until `at` (if it has not already). */
  advanceTo(at: Date): number {
    const skipMs = Math.max(0, at.getTime() - demoClock.now().getTime());
    demoClock.aheadMs += skipMs;
    return skipMs;
  },
};

/**
 * Tomorrow at 10:00 in the contact's zone, as ISO 8601 with that zone's UTC offset: what a
 * post-call analysis reports for "call me back tomorrow at ten".
 */
function tomorrowAtTen(timeZone: string): string {
  const tomorrow = new Date(demoClock.now().getTime() + 24 * 3600_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(tomorrow)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T10:00:00${offset}`;
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers: operator GraphQL with the admin token, REST with the Account's API key.

async function graphql<T>(
  baseUrl: string,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: Array<{ message: string }> };
  if (body.errors?.length || !body.data)
    throw new DemoFailure(
      `GraphQL answered ${response.status}: ${body.errors?.map((e) => e.message).join('; ') ?? 'no data'}`,
    );
  return body.data;
}

async function rest<T>(
  baseUrl: string,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DemoFailure(
      `${method} ${path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
    );
  }
  return { status: response.status, json: json as T };
}

interface ContactView {
  id: string;
  fullName: string | null;
  phone: string | null;
  status: string | null;
  callCount: number;
  lastCallAt: string | null;
  nextCallAt: string | null;
  language: string | null;
  assignedWorkflowId: string | null;
}
interface CallView {
  id: string;
  status: string;
  result: string | null;
  endReason: string | null;
  startedAt: string;
  endedAt: string | null;
  durationSeconds: number | null;
  lastCall: boolean;
  transcriptAvailable: boolean;
  language: string | null;
}
interface Transcript {
  utterances: Array<{ speaker: string; content: string; timestamp: string }>;
}

const short = (id: string) => `${id.slice(0, 8)}…`;
const json = (value: unknown) => JSON.stringify(value);

// ---------------------------------------------------------------------------------------------

/** What main() started, for stopping it whether the story succeeds or not. */
const resources: { service: RunningService | null; vapi: VapiEmulator | null; retell: RetellEmulator | null } = {
  service: null,
  vapi: null,
  retell: null,
};

/** One line of the summary per provider, filled as the story goes. */
const summary: Record<Provider, Record<string, string>> = { vapi: {}, retell: {} };

type ZonedTime = typeof import('../src/domain/calls/zoned-time.js');

/**
 * Where the demo's clock starts, given the real time: null (the real time will do) when it is
 * between 09:00 and 20:00 in Los Angeles, inside the hours California lets the dialer call the
 * contacts (09:00-21:00, docs/calling-rules-table.md) with an hour to spare for the story; else
 * the next weekday 10:00 there.
 */
function callingTimeAfter(now: Date, zoned: ZonedTime): Date | null {
  const zone = zoned.zoneOf(CONTACT_ZONE);
  const minutes = (zoned.wallClock(zone, now.getTime()) % 86_400_000) / 60_000;
  if (minutes >= 9 * 60 && minutes < 20 * 60) return null;
  for (let date = zoned.localDate(zone, now.getTime()); ; date = zoned.addDays(date, 1)) {
    const tenAm = zoned.localToInstant(zone, date, 10 * 60);
    if (tenAm > now.getTime() && zoned.weekdayIndex(date) < 5) return new Date(tenAm);
  }
}

/** The local time in the contacts' zone, e.g. "Monday 10:00". */
const localTime = (at: Date) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: CONTACT_ZONE,
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);

async function main(): Promise<void> {
  // The calls must be placed at a time the law allows: the demo's clock starts then (see above).
  const realNow = new Date();
  const callingTime = callingTimeAfter(realNow, await import('../src/domain/calls/zoned-time.js'));
  if (callingTime) demoClock.advanceTo(callingTime);
  const { startVapiEmulator } = await import('../test/support/vapi-emulator/index.js');
  const { startRetellEmulator } = await import('../test/support/retell-emulator/index.js');
  const { startService } = await import('../src/service.js');
  // Where each adapter puts our call id on the provider's call.
  const { CALL_ID_METADATA_KEY: VAPI_CALL_ID_KEY } = await import('../src/calls/telephony/vapi/create-call-request.js');
  const { CALL_ID_METADATA_KEY: RETELL_CALL_ID_KEY } = await import('../src/calls/telephony/retell/retell-call.js');

  step('1. Start the providers: the Vapi emulator and the Retell emulator');
  const keys = {
    vapi: {
      apiKey: `vapi-private-${randomBytes(12).toString('hex')}`,
      webhookSecret: `vapi-hmac-${randomBytes(16).toString('hex')}`,
    },
    retell: {
      apiKey: `key_${randomBytes(14).toString('hex')}`,
      webhookSecret: `key_webhook_${randomBytes(14).toString('hex')}`,
    },
  };
  // Each emulator knows only our assistant/agent and number: a create naming others is refused.
  const vapi = await startVapiEmulator({
    ...keys.vapi,
    now: () => demoClock.now(),
    assistantIds: [PROVIDER_AGENT.vapi.providerAgentId],
    phoneNumbers: { [PROVIDER_AGENT.vapi.providerPhoneNumber]: PROVIDER_AGENT.vapi.fromNumber },
  });
  resources.vapi = vapi;
  const retell = await startRetellEmulator({
    ...keys.retell,
    now: () => demoClock.now(),
    agentIds: [PROVIDER_AGENT.retell.providerAgentId],
    phoneNumbers: [PROVIDER_AGENT.retell.providerPhoneNumber],
  });
  resources.retell = retell;
  say(`  Vapi emulator     ${vapi.baseUrl}  (POST /call; server messages signed with an HMAC credential)`);
  say(`  Retell emulator   ${retell.baseUrl}  (POST /v2/create-phone-call; webhooks with x-retell-signature)`);
  say(
    `  API keys          vapi …${keys.vapi.apiKey.slice(-4)}, retell …${keys.retell.apiKey.slice(-4)} (each with its own webhook secret)`,
  );

  step('2. Start Contactline (in memory, with the demo account and the background dialer)');
  const adminToken = randomBytes(24).toString('base64url');
  const service = await startService({
    env: {
      PORT: 0,
      HOST: '127.0.0.1',
      REGION: 'us',
      DATA_DIR: '',
      DATABASE_URL: undefined,
      ADMIN_TOKEN: adminToken,
      TELEPHONY_WEBHOOK_SECRETS: undefined,
      // What an operator sets for real calls, with the provider URLs pointed at the emulators.
      PROVIDER_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
      VAPI_API_URL: vapi.baseUrl,
      RETELL_API_URL: retell.baseUrl,
    },
    inMemory: true,
    clock: demoClock,
    seedDemo: true,
    dialer: true,
    monday: null,
  });
  resources.service = service;
  const { baseUrl, demo } = service;
  check(demo, 'the in-memory database did not get the demo account');
  const publicBaseUrl = service.services.voice?.publicBaseUrl;
  check(
    publicBaseUrl === baseUrl,
    `the webhook base URL is ${publicBaseUrl}, expected the service's own address ${baseUrl}`,
  );
  const webhookUrl = (provider: Provider) => `${baseUrl}/api/telephony/${provider}/${demo.accountId}`;
  say(`  Contactline       ${baseUrl}  (dialer running every second)`);
  say(`  demo account      ${demo.accountId}, API key …${demo.apiKey.slice(-4)}`);
  say(`  webhook URLs      ${new URL(webhookUrl('vapi')).pathname}`);
  say(`                    ${new URL(webhookUrl('retell')).pathname}`);
  const lawsHours = 'California lets the dialer call the contacts 09:00-21:00 their time';
  if (callingTime)
    say(
      `  demo's clock      starts at ${localTime(callingTime)} in Los Angeles (${callingTime.toISOString()}): it is ${localTime(realNow)} there, ` +
        `and the story needs a time between 09:00 and 20:00 there (${lawsHours})`,
    );
  else say(`  demo's clock      the real time, ${localTime(realNow)} in Los Angeles (${lawsHours})`);

  step('3. The operator (GraphQL, ADMIN_TOKEN): provider keys, a Vapi agent, a Retell agent, a workflow each');
  const admin = <T>(query: string, variables: Record<string, unknown> = {}) =>
    graphql<T>(baseUrl, adminToken, query, variables);
  for (const provider of ['vapi', 'retell'] as const) {
    const { setProviderCredentials: stored } = await admin<{
      setProviderCredentials: { provider: string; apiKeyLastFour: string; webhookSecretSet: boolean };
    }>('mutation ($i: JSON!) { setProviderCredentials(input: $i) { provider apiKeyLastFour webhookSecretSet } }', {
      i: { accountId: demo.accountId, provider, ...keys[provider] },
    });
    check(
      stored.provider === provider && stored.webhookSecretSet,
      `setProviderCredentials(${provider}) answered ${json(stored)}`,
    );
    say(`  setProviderCredentials(${provider.padEnd(6)}) → ${json(stored)}`);
  }
  const { providerCredentials } = await admin<{ providerCredentials: Array<Record<string, unknown>> }>(
    'query ($a: String!) { providerCredentials(accountId: $a) { provider apiKeyLastFour webhookSecretSet maxConcurrentCalls } }',
    { a: demo.accountId },
  );
  const listed = json(providerCredentials);
  check(providerCredentials.length === 2, `providerCredentials lists ${providerCredentials.length} keys: ${listed}`);
  for (const provider of ['vapi', 'retell'] as const) {
    const view = providerCredentials.find((c) => c.provider === provider);
    check(
      view?.apiKeyLastFour === keys[provider].apiKey.slice(-4),
      `providerCredentials shows ${json(view)} for ${provider}`,
    );
    check(
      !listed.includes(keys[provider].apiKey) && !listed.includes(keys[provider].webhookSecret),
      `providerCredentials shows a secret: ${listed}`,
    );
  }
  say(`  providerCredentials → ${listed}`);
  say(
    "    (only the keys' last four characters: the keys and webhook secrets are stored encrypted and never read back)",
  );

  const workflows = {} as Record<Provider, { agentId: string; workflowId: string }>;
  for (const provider of ['vapi', 'retell'] as const) {
    const { name, providerAgentId, providerPhoneNumber } = PROVIDER_AGENT[provider];
    const { createAgent: agent } = await admin<{
      createAgent: {
        id: string;
        provider: string;
        status: string;
        providerAgentId: string;
        providerPhoneNumber: string;
        callNewContactsImmediately: boolean;
      };
    }>(
      'mutation ($i: JSON!) { createAgent(input: $i) { id provider status providerAgentId providerPhoneNumber callNewContactsImmediately } }',
      {
        i: {
          accountId: demo.accountId,
          name,
          provider,
          providerAgentId,
          providerPhoneNumber,
          status: 'live',
          callNewContactsImmediately: true,
          timezone: 'America/Los_Angeles',
        },
      },
    );
    check(agent.provider === provider && agent.status === 'live', `createAgent(${provider}) answered ${json(agent)}`);
    const { createWorkflow: workflow } = await admin<{ createWorkflow: { id: string; name: string; status: string } }>(
      'mutation ($a: String!, $g: String!, $n: String!) { createWorkflow(accountId: $a, agentId: $g, name: $n, status: published) { id name status } }',
      { a: demo.accountId, g: agent.id, n: `${provider === 'vapi' ? 'Vapi' : 'Retell'} outreach` },
    );
    check(workflow.status === 'published', `createWorkflow(${provider}) answered ${json(workflow)}`);
    workflows[provider] = { agentId: agent.id, workflowId: workflow.id };
    say(
      `  createAgent "${name}" → ${short(agent.id)} ${agent.provider}, ${agent.status}, providerAgentId ${agent.providerAgentId}, providerPhoneNumber ${agent.providerPhoneNumber}`,
    );
    say(`  createWorkflow "${workflow.name}" → ${short(workflow.id)} ${workflow.status}, agent "${name}"`);
  }

  step(
    "4. Script each call's outcome at its provider, then enroll one contact per workflow with the contact's consent (REST)",
  );
  const callbackAt = tomorrowAtTen(CONTACT_ZONE);
  vapi.script(CONTACTS.vapi.phone, {
    endedReason: 'customer-ended-call',
    durationSeconds: 95,
    transcript: VAPI_TRANSCRIPT,
    analysis: { outcome: 'converted', language: 'en-US' },
  });
  say(
    `  Vapi   ${CONTACTS.vapi.phone}: the customer hangs up after 95 s; the structured output says { outcome: converted, language: en-US }`,
  );
  retell.script(CONTACTS.retell.phone, {
    disconnectionReason: 'user_hangup',
    durationSeconds: 48,
    transcript: RETELL_TRANSCRIPT,
    analysis: {
      outcome: 'callback_requested',
      callbackAt,
      language: 'en-US',
      summary: 'The contact asked to be called back tomorrow at ten.',
    },
  });
  say(
    `  Retell ${CONTACTS.retell.phone}: the user hangs up after 48 s; the analysis says { outcome: callback_requested, callback_at: ${callbackAt} }`,
  );
  const contacts = {} as Record<Provider, ContactView>;
  for (const provider of ['vapi', 'retell'] as const) {
    const { externalId, firstName, lastName, phone, customFields } = CONTACTS[provider];
    // The contact's prior express written consent, as the CRM recorded it when she signed up: a
    // US telemarketing call (the demo Account's purpose) is placed only with it.
    const consent = {
      kind: 'express_written',
      method: 'web_form',
      evidence: `signed the call-me form at example.com/demo as ${firstName} ${lastName}`,
      obtainedAt: new Date(demoClock.now().getTime() - 2 * 86_400_000).toISOString(),
    };
    const upsert = await rest<ContactView>(baseUrl, demo.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      externalId,
      firstName,
      lastName,
      phone,
      customFields,
      timezone: CONTACT_ZONE,
      assignmentOptions: { workflowId: workflows[provider].workflowId },
      consent,
    });
    check(
      upsert.status === 201,
      `PUT /api/v1/contacts/upsert (${firstName} ${lastName}) answered ${upsert.status}: ${json(upsert.json)}`,
    );
    check(
      upsert.json.assignedWorkflowId === workflows[provider].workflowId,
      `${firstName} ${lastName} is assigned to ${upsert.json.assignedWorkflowId}`,
    );
    contacts[provider] = upsert.json;
    summary[provider].contact = `${firstName} ${lastName}`;
    say(
      `  PUT /api/v1/contacts/upsert ${firstName} ${lastName} (${externalId}) → ${upsert.status}, contact ${short(upsert.json.id)}, status ${upsert.json.status}, on "${provider === 'vapi' ? 'Vapi' : 'Retell'} outreach"`,
    );
    say(`         consent ${consent.kind} (${consent.method}, obtained ${consent.obtainedAt}): "${consent.evidence}"`);
  }

  step("5. The dialer places each call through the provider's SDK");
  const prisma = service.services.db.prisma;
  const queuedCall = (provider: Provider) =>
    until(`the ${provider} call of ${summary[provider].contact} to be queued with its provider`, async () => {
      const call = await prisma.call.findFirst({ where: { contactId: contacts[provider].id } });
      return call?.status === 'queued' && call.providerCallId ? call : null;
    });
  /** What allowed the call, from its audit (the calling rules' decision the dialer kept on the Call row). */
  const allowedBy = (provider: Provider, call: { dialingAudit: unknown }) => {
    const audit = call.dialingAudit as {
      ruleSetVersion?: string;
      purpose?: string;
      jurisdictions?: string[];
      timeZones?: string[];
      consent?: { kind: string } | null;
    } | null;
    check(
      audit?.consent?.kind === 'express_written',
      `the ${provider} call's dialing audit names no written consent: ${json(audit)}`,
    );
    say(
      `         allowed by the calling rules ${audit.ruleSetVersion} (${audit.purpose}): ${audit.jurisdictions?.join(', ')}, ${audit.timeZones?.join(', ')}, consent ${audit.consent.kind}`,
    );
  };
  const vapiCall = await queuedCall('vapi');
  const vapiCreated = vapi.calls.find((c) => c.id === vapiCall.providerCallId);
  check(vapiCreated?.request, `the Vapi emulator has no create request for call ${vapiCall.providerCallId}`);
  {
    const request = vapiCreated.request as {
      assistantId: string;
      phoneNumberId: string;
      customer: { number: string };
      name: string;
      assistantOverrides: {
        metadata: Record<string, string>;
        variableValues: Record<string, unknown>;
        server: { url: string; headers?: Record<string, string> };
      };
    };
    const overrides = request.assistantOverrides;
    check(
      overrides.metadata[VAPI_CALL_ID_KEY] === vapiCall.id && request.name === vapiCall.id,
      `the Vapi create names call ${json(overrides.metadata)} (name ${request.name}), expected ${vapiCall.id}`,
    );
    check(
      request.customer.number === CONTACTS.vapi.phone &&
        request.assistantId === PROVIDER_AGENT.vapi.providerAgentId &&
        request.phoneNumberId === PROVIDER_AGENT.vapi.providerPhoneNumber,
      `the Vapi create request is ${json(request)}`,
    );
    const sentFields = (overrides.variableValues.customFields ?? {}) as Record<string, unknown>;
    check(
      overrides.variableValues.firstName === 'Ada' &&
        overrides.variableValues.lastName === 'Lovelace' &&
        Object.entries(CONTACTS.vapi.customFields).every(([k, v]) => sentFields[k] === v),
      `Vapi variableValues are ${json(overrides.variableValues)}`,
    );
    check(overrides.server.url === webhookUrl('vapi'), `the Vapi call's server URL is ${overrides.server.url}`);
    say(`  Vapi   POST /call → 201 (the emulator's record of the request):`);
    say(
      `         assistantId ${request.assistantId}, phoneNumberId ${request.phoneNumberId}, customer.number ${request.customer.number}`,
    );
    say(`         name ${request.name}, assistantOverrides.metadata ${json(overrides.metadata)}`);
    say(`         assistantOverrides.variableValues ${json(overrides.variableValues)}`);
    say(
      `         assistantOverrides.server.url …${new URL(overrides.server.url).pathname}, headers: ${Object.keys(overrides.server.headers ?? {}).join(', ') || 'none'}`,
    );
    say(
      `         Call row ${vapiCall.id}: status ${vapiCall.status}, provider ${vapiCall.provider}, providerCallId ${vapiCall.providerCallId}`,
    );
    allowedBy('vapi', vapiCall);
    summary.vapi.providerCallId = vapiCall.providerCallId!;
  }
  const retellCall = await queuedCall('retell');
  const retellCreated = retell.calls.find((c) => c.providerCallId === retellCall.providerCallId);
  check(retellCreated?.request, `the Retell emulator has no create request for call ${retellCall.providerCallId}`);
  {
    const request = retellCreated.request as unknown as {
      from_number: string;
      to_number: string;
      override_agent_id: string;
      metadata: Record<string, string>;
      retell_llm_dynamic_variables: Record<string, string>;
      agent_override: { agent: { webhook_url: string; webhook_events: string[] } };
    };
    check(
      request.metadata[RETELL_CALL_ID_KEY] === retellCall.id,
      `the Retell create names call ${json(request.metadata)}, expected ${retellCall.id}`,
    );
    check(
      request.to_number === CONTACTS.retell.phone &&
        request.from_number === PROVIDER_AGENT.retell.providerPhoneNumber &&
        request.override_agent_id === PROVIDER_AGENT.retell.providerAgentId,
      `the Retell create request is ${json(request)}`,
    );
    const variables = request.retell_llm_dynamic_variables;
    check(
      variables.first_name === 'Grace' && variables.company === 'Navy Labs',
      `Retell dynamic variables are ${json(variables)}`,
    );
    check(
      request.agent_override.agent.webhook_url === webhookUrl('retell'),
      `the Retell call's webhook_url is ${request.agent_override.agent.webhook_url}`,
    );
    say(`  Retell POST /v2/create-phone-call → 201 (the emulator's record of the request):`);
    say(
      `         override_agent_id ${request.override_agent_id}, from_number ${request.from_number}, to_number ${request.to_number}`,
    );
    say(`         metadata ${json(request.metadata)}`);
    say(`         retell_llm_dynamic_variables ${json(variables)}`);
    say(
      `         agent_override.agent.webhook_url …${new URL(request.agent_override.agent.webhook_url).pathname}, events ${request.agent_override.agent.webhook_events.join(', ')}`,
    );
    say(
      `         Call row ${retellCall.id}: status ${retellCall.status}, provider ${retellCall.provider}, providerCallId ${retellCall.providerCallId}`,
    );
    allowedBy('retell', retellCall);
    summary.retell.providerCallId = retellCall.providerCallId!;
  }

  step(
    '6. Each call runs its course; its provider then sends its signed webhooks to POST /api/telephony/{provider}/{accountId}',
  );
  // A provider reports a call once it is over: the demo's clock moves on to then instead of waiting.
  const lives = { vapi: vapi.timeline(vapiCall.providerCallId!), retell: retell.timeline(retellCall.providerCallId!) };
  const clockTime = (at: Date) => at.toISOString().slice(11, 19);
  for (const provider of ['vapi', 'retell'] as const) {
    const life = lives[provider];
    check(life.startedAt, `the ${provider} call was never picked up`);
    say(
      `  ${provider === 'vapi' ? 'Vapi  ' : 'Retell'} placed ${clockTime(life.createdAt)}, picked up ${clockTime(life.startedAt)}, ended ${clockTime(life.endedAt)} ` +
        `(${(life.endedAt.getTime() - life.startedAt.getTime()) / 1000} s), reported ${clockTime(life.reportAt)}`,
    );
  }
  const skipped = demoClock.advanceTo(
    new Date(Math.max(lives.vapi.reportAt.getTime(), lives.retell.reportAt.getTime())),
  );
  say(`  (the demo's clock moves on ${Math.round(skipped / 1000)} s, to when both providers report their calls)`);
  const vapiFinished = await vapi.finishCall(vapiCall.providerCallId!);
  for (const delivery of vapiFinished.deliveries)
    say(
      `  Vapi   ${`${delivery.type}${delivery.status ? ` ${delivery.status}` : ''}`.padEnd(26)} → ${delivery.httpStatus}`,
    );
  check(
    vapiFinished.deliveries.length > 0 && vapiFinished.statuses.every((s) => s === 200),
    `Contactline answered the Vapi webhooks ${json(vapiFinished.statuses)}`,
  );
  check(
    vapiFinished.deliveries.some((d) => d.type === 'end-of-call-report'),
    'Vapi sent no end-of-call-report',
  );
  summary.vapi.webhooks = vapiFinished.statuses.join(' ');
  const retellFinished = await retell.finishCall(retellCall.providerCallId!);
  for (const delivery of retellFinished.deliveries)
    say(`  Retell ${delivery.event.padEnd(26)} → ${delivery.status ?? 'no answer'}`);
  check(
    retellFinished.deliveries.length > 0 && retellFinished.statuses.every((s) => s === 200),
    `Contactline answered the Retell webhooks ${json(retellFinished.statuses)}`,
  );
  check(
    retellFinished.deliveries.some((d) => d.event === 'call_analyzed'),
    'Retell sent no call_analyzed',
  );
  summary.retell.webhooks = retellFinished.statuses.join(' ');

  step("7. What the REST API shows now: each contact, its calls, each call's transcript");
  const expected = {
    vapi: {
      status: 'converted',
      result: 'converted',
      nextCallAt: null as string | null,
      endReason: 'customer-ended-call',
      duration: 95,
      lines: VAPI_TRANSCRIPT.map((l) => l.message),
    },
    retell: {
      status: 'reached',
      result: 'callback_requested',
      nextCallAt: new Date(callbackAt).toISOString(),
      endReason: 'user_hangup',
      duration: 48,
      lines: RETELL_TRANSCRIPT.map((l) => l.content),
    },
  };
  for (const provider of ['vapi', 'retell'] as const) {
    const { externalId } = CONTACTS[provider];
    const want = expected[provider];
    const label = provider === 'vapi' ? 'Vapi  ' : 'Retell';
    const contact = await rest<ContactView>(
      baseUrl,
      demo.apiKey,
      'GET',
      `/api/v1/contacts/source/api/external-id/${externalId}`,
    );
    check(contact.status === 200, `GET the contact ${externalId} answered ${contact.status}: ${json(contact.json)}`);
    const c = contact.json;
    say(`  ${label} GET /api/v1/contacts/source/api/external-id/${externalId} → ${contact.status}`);
    say(
      `         ${c.fullName}: status ${c.status}, callCount ${c.callCount}, lastCallAt ${c.lastCallAt}, nextCallAt ${c.nextCallAt}, language ${c.language}`,
    );
    check(
      c.status === want.status && c.callCount === 1 && c.nextCallAt === want.nextCallAt,
      `${c.fullName} has status ${c.status}, callCount ${c.callCount}, nextCallAt ${c.nextCallAt}; expected ${want.status}, 1, ${want.nextCallAt}`,
    );

    const calls = await rest<{ data: CallView[] }>(
      baseUrl,
      demo.apiKey,
      'GET',
      `/api/v1/contacts/source/api/external-id/${externalId}/calls`,
    );
    check(
      calls.status === 200 && calls.json.data.length === 1,
      `GET ${externalId}'s calls answered ${calls.status}: ${json(calls.json)}`,
    );
    const [call] = calls.json.data;
    say(`  ${label} GET …/external-id/${externalId}/calls → ${calls.status}, ${calls.json.data.length} call`);
    say(
      `         ${short(call.id)} ${call.status}, result ${call.result}, endReason ${call.endReason}, ${call.durationSeconds} s, lastCall ${call.lastCall}, transcriptAvailable ${call.transcriptAvailable}`,
    );
    check(
      call.status === 'ended' &&
        call.result === want.result &&
        call.endReason === want.endReason &&
        call.durationSeconds === want.duration &&
        call.transcriptAvailable,
      `${c.fullName}'s call is ${json(call)}; expected ended, ${want.result}, ${want.endReason}, ${want.duration} s, with a transcript`,
    );
    check(call.lastCall === (want.nextCallAt === null), `${c.fullName}'s call has lastCall ${call.lastCall}`);
    // Dated as the provider dated it: placed (startedAt, the dialer's stamp) ≤ picked up ≤ ended ≤ now, the duration from pick-up to end.
    const readAt = demoClock.now().getTime();
    const life = lives[provider];
    say(`         startedAt ${call.startedAt} (placed), endedAt ${call.endedAt}`);
    check(
      call.endedAt === life.endedAt.toISOString() &&
        Date.parse(call.endedAt) <= readAt &&
        Date.parse(call.startedAt) <= life.startedAt!.getTime(),
      `${c.fullName}'s call is dated startedAt ${call.startedAt}, endedAt ${call.endedAt}; the provider picked up at ${life.startedAt!.toISOString()} and ended at ${life.endedAt.toISOString()}, read at ${new Date(readAt).toISOString()}`,
    );
    check(
      (call.durationSeconds ?? 0) * 1000 === life.endedAt.getTime() - life.startedAt!.getTime(),
      `${c.fullName}'s call lasted ${call.durationSeconds} s from pick-up to end`,
    );

    const transcript = await rest<Transcript>(baseUrl, demo.apiKey, 'GET', `/api/v1/calls/${call.id}/transcript`);
    check(
      transcript.status === 200,
      `GET the transcript of ${call.id} answered ${transcript.status}: ${json(transcript.json)}`,
    );
    say(
      `  ${label} GET /api/v1/calls/${short(call.id)}/transcript → ${transcript.status}, ${transcript.json.utterances.length} utterances (times from the pick-up)`,
    );
    for (const u of transcript.json.utterances)
      say(
        `         +${String(Math.round((Date.parse(u.timestamp) - life.startedAt!.getTime()) / 1000)).padStart(2)} s ${u.speaker.padEnd(9)} ${u.content}`,
      );
    check(
      json(transcript.json.utterances.map((u) => u.content)) === json(want.lines),
      `${c.fullName}'s transcript reads ${json(transcript.json.utterances.map((u) => u.content))}`,
    );
    check(
      transcript.json.utterances.every(
        (u) =>
          Date.parse(u.timestamp) >= life.startedAt!.getTime() && Date.parse(u.timestamp) <= Date.parse(call.endedAt!),
      ),
      `${c.fullName}'s transcript has times outside the call (${life.startedAt!.toISOString()} to ${call.endedAt}): ${transcript.json.utterances.map((u) => u.timestamp).join(', ')}`,
    );
    check(
      transcript.json.utterances.every((u, i) => u.speaker === (i % 2 === 0 ? 'assistant' : 'user')),
      `${c.fullName}'s transcript speakers are ${transcript.json.utterances.map((u) => u.speaker).join(', ')}`,
    );
    Object.assign(summary[provider], {
      result: call.result!,
      status: c.status ?? '—',
      calls: String(c.callCount),
      next: c.nextCallAt ?? '—',
      utterances: String(transcript.json.utterances.length),
    });
  }

  step('8. Forged webhooks, signed with a wrong secret: refused with 401, nothing changes');
  // Vapi: the call's end-of-call-report, rewritten to say do_not_call, with a signature made with another secret.
  const report = vapiFinished.deliveries.find((d) => d.type === 'end-of-call-report')!;
  const forgedReport = report.body.replace('"outcome":"converted"', '"outcome":"do_not_call"');
  check(forgedReport !== report.body, 'the end-of-call-report has no outcome to rewrite');
  const forgedHeaders = vapi.headersFor(forgedReport, { secret: `forged-${randomBytes(12).toString('hex')}` });
  const forged = await fetch(webhookUrl('vapi'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...forgedHeaders },
    body: forgedReport,
  });
  const forgedBody = (await forged.json()) as { error?: { code?: string; message?: string } };
  say(
    `  Vapi   end-of-call-report (outcome rewritten to do_not_call), x-signature made with another secret → ${forged.status} ${json(forgedBody)}`,
  );
  check(forged.status === 401, `the forged Vapi webhook answered ${forged.status}: ${json(forgedBody)}`);
  // Retell: its call_analyzed, re-sent signed with another key.
  const forgedRetell = await retell.finishCall(retellCall.providerCallId!, {
    order: ['call_analyzed'],
    secret: `key_forged_${randomBytes(12).toString('hex')}`,
  });
  say(`  Retell call_analyzed, x-retell-signature made with another key → ${forgedRetell.statuses.join(', ')}`);
  check(
    forgedRetell.statuses.length === 1 && forgedRetell.statuses[0] === 401,
    `the forged Retell webhook answered ${json(forgedRetell.statuses)}`,
  );
  for (const provider of ['vapi', 'retell'] as const) {
    const contact = await prisma.contact.findUniqueOrThrow({ where: { id: contacts[provider].id } });
    const calls = await prisma.call.findMany({ where: { contactId: contacts[provider].id } });
    check(
      contact.status === expected[provider].status &&
        contact.callCount === 1 &&
        calls.length === 1 &&
        calls[0].result === expected[provider].result,
      `after the forged webhook, ${summary[provider].contact} has status ${contact.status}, callCount ${contact.callCount}, calls ${json(calls.map((c) => c.result))}`,
    );
  }
  say(
    `  ${summary.vapi.contact} is still ${expected.vapi.status}, ${summary.retell.contact} still ${expected.retell.status}: one call each, results unchanged`,
  );
  summary.vapi.forged = String(forged.status);
  summary.retell.forged = String(forgedRetell.statuses[0]);

  step('9. Summary');
  const header = [
    'Provider',
    'Contact',
    'Provider call id',
    'Webhooks',
    'Result',
    'Status',
    'Calls',
    'Next call',
    'Utterances',
    'Forged',
  ];
  const rows = (['vapi', 'retell'] as const).map((p) => {
    const s = summary[p];
    const id = s.providerCallId.length > 18 ? `${s.providerCallId.slice(0, 17)}…` : s.providerCallId;
    return [
      p === 'vapi' ? 'Vapi' : 'Retell',
      s.contact,
      id,
      s.webhooks,
      s.result,
      s.status,
      s.calls,
      s.next,
      s.utterances,
      s.forged,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i])).join('  ')}`.trimEnd();
  say(line(header));
  say(line(widths.map((w) => '─'.repeat(w))));
  for (const row of rows) say(line(row));
}

async function stop() {
  await resources.service?.stop();
  await resources.vapi?.stop();
  await resources.retell?.stop();
}

runDemo({
  main,
  stop,
  stopStep: '10. Stop',
  stopped: 'stopped Contactline and both emulators',
  deadlineMs: DEADLINE_MS,
});
