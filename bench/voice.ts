// Voice provider figures (called from bench/run.ts on a fresh Account of the seeded database, with
// the service's Vapi and Retell adapters pointed at the provider emulators on loopback), per
// provider, from the same calls:
//
//   place-call-{vapi,retell}  runDialerOnce placing one claimed call end to end: the claim
//                      transaction (claim SELECT, cap locks and counts, Call INSERT, enrollment
//                      UPDATE), the placing call's read, the credentials read and decrypted, the
//                      SDK create request to the emulator, and the outcome settled (Call → queued).
//                      Baseline: the bare SDK create request (one client built once, the very body
//                      the adapter sent, captured by the emulator) to the same emulator, right
//                      after: the provider's answer time. The figure is our own work, the
//                      difference of each pair (dialer − SDK create); its "raw" columns are the
//                      SDK create itself.
//   webhook-{vapi,retell}  POST /api/telephony/{provider}/{accountId} with the signed message that
//                      ends the call (Vapi end-of-call-report, Retell call_analyzed: call.ended,
//                      then the transcript and recording), after the messages that precede it in
//                      the call's life were delivered untimed (Vapi status-update in-progress,
//                      Retell call_started and call_ended), signed by the emulators' helpers just
//                      before the request. Raw: the call-ended figure's baseline (bench/calls.ts),
//                      one UPDATE of the contact row on the driver.
//
// Every call is a new contact enrolled (PUT /contacts/upsert with assignmentOptions, untimed) on
// a live provider agent that calls new contacts at once; the dialer must claim exactly that one.
// So this group runs before any figure that leaves other enrollments due (board, calls).
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { VapiClient, type Vapi } from '@vapi-ai/server-sdk';
import Retell from 'retell-sdk';
import type { Services } from '../src/domain/context.js';
import { runDialerOnce } from '../src/jobs/dialer.js';
import type { Telephony } from '../src/calls/telephony/telephony.port.js';
import type { RemoteVoiceProvider, VoiceProviderAdapter } from '../src/calls/telephony/voice-provider.port.js';
import { ADMIN_TOKEN, type TestServer } from '../test/support/test-server.js';
import { startVapiEmulator, type VapiCallScript, type VapiEmulator } from '../test/support/vapi-emulator/index.js';
import {
  analysisFor,
  artifactFor,
  endOfCallReport,
  statusUpdate,
  timelineFor,
} from '../test/support/vapi-emulator/messages.js';
import { startRetellEmulator, type RetellEmulator } from '../test/support/retell-emulator/index.js';
import { ALWAYS_OPEN } from '../test/support/working-hours.js';
import type { DatabaseKind } from '../test/support/databases.js';
import { RAW_CONTACT_UPDATE } from './calls.js';
import { figure, stats, timed, type Figure } from './run.js';

export interface VoiceSettings {
  /** Calls placed and ended per provider (after `warmup` untimed ones). */
  calls: number;
  warmup: number;
}

const KEY = { vapi: 'vapi-private-key-bench-0001', retell: 'key_retell_bench_0001' };
const SECRET = { vapi: 'vapi-webhook-secret-bench-0001', retell: 'key_retell_webhook_bench_0001' };
const AGENT = {
  vapi: {
    providerAgentId: '5c2f7d0e-0000-4000-8000-00000000a551',
    providerPhoneNumber: '5c2f7d0e-0000-4000-8000-0000000000f0',
  },
  retell: { providerAgentId: 'agent_7f3a', providerPhoneNumber: '+14155550177' },
};
/** A converted conversation with a transcript and a recording (the emulators' default transcript). */
const VAPI_SCRIPT: VapiCallScript = {
  endedReason: 'customer-ended-call',
  durationSeconds: 95,
  analysis: { outcome: 'converted', language: 'en-US' },
  recordingUrl: 'https://storage.vapi.example/rec.wav',
};

export interface ProviderEmulators {
  vapi: VapiEmulator;
  retell: RetellEmulator;
  /** The service's voice configuration: the emulators as the providers' API base URLs. */
  urls: { VAPI_API_URL: string; RETELL_API_URL: string };
  stop(): Promise<void>;
}

/**
 * The bench service's and emulators' clock: real time plus an offset that only grows. Before a
 * call's end-of-call message is sent, the voice figures move it on to the call's report time
 * (its pick-up, talk and end), so that no message reports a time still to come.
 */
export const benchClock = {
  offsetMs: 0,
  now: (): Date => new Date(Date.now() + benchClock.offsetMs),
  /** Moves the clock on to `at` when it is not there yet. */
  reach(at: Date): void {
    benchClock.offsetMs += Math.max(0, at.getTime() - benchClock.now().getTime());
  },
};

/** Both emulators, with no concurrency limit in the way (the SDK baseline's calls never end). */
export async function startProviderEmulators(): Promise<ProviderEmulators> {
  const vapi = await startVapiEmulator({
    apiKey: KEY.vapi,
    webhookSecret: SECRET.vapi,
    concurrencyLimit: 1_000_000,
    now: benchClock.now,
  });
  const retell = await startRetellEmulator({
    apiKey: KEY.retell,
    webhookSecret: SECRET.retell,
    concurrencyLimit: 1_000_000,
    webhookRetries: 0,
    now: benchClock.now,
  });
  return {
    vapi,
    retell,
    urls: { VAPI_API_URL: vapi.baseUrl, RETELL_API_URL: retell.baseUrl },
    stop: async () => {
      await vapi.stop();
      await retell.stop();
    },
  };
}

/** A signed webhook: its body and a function signing it now. */
interface Message {
  body: string;
  headers: () => Promise<Record<string, string>>;
}

/** One provider's emulator behind the verbs the figures need. */
interface Driver {
  provider: RemoteVoiceProvider;
  /** Scripts the call to this number (before it is placed). */
  script(phone: string): void;
  /** The create body the emulator received for this provider call. */
  createBody(providerCallId: string): unknown;
  /** The bare SDK create (client built once); resolves with the provider's call id. */
  sdkCreate(body: unknown): Promise<string>;
  /** The call's messages up to its end, in order: the last one ends it. */
  life(providerCallId: string): Message[];
  /** When the provider reports the call's end (the clock must be there before its messages are sent). */
  reportAt(providerCallId: string): Date;
}

function vapiDriver(vapi: VapiEmulator): Driver {
  const client = new VapiClient({ token: KEY.vapi, baseUrl: vapi.baseUrl });
  const emulated = (id: string) => {
    const call = vapi.calls.find((c) => c.id === id);
    if (!call) throw new Error(`vapi emulator: no call ${id}`);
    return call;
  };
  return {
    provider: 'vapi',
    script: (phone) => vapi.script(phone, VAPI_SCRIPT),
    createBody: (id) => emulated(id).request,
    async sdkCreate(body) {
      const created = await client.calls.create(body as Vapi.CreateCallDto, { maxRetries: 0 });
      const id = (created as Vapi.Call).id;
      if (!id) throw new Error(`vapi SDK create: ${JSON.stringify(created).slice(0, 300)}`);
      return id;
    },
    reportAt: (id) => vapi.timeline(id, VAPI_SCRIPT).reportAt,
    life(id) {
      // The emulator's own message builders (what finishCall sends), without sending them: the
      // status-update in-progress (call.started), then the end-of-call-report.
      const { call: placed, ourNumber } = emulated(id);
      const timeline = timelineFor(placed, VAPI_SCRIPT);
      const startedAt = timeline.startedAt!;
      const started = {
        ...placed,
        status: 'in-progress' as const,
        startedAt: startedAt.toISOString(),
        updatedAt: startedAt.toISOString(),
      };
      const ended: Vapi.Call = {
        ...placed,
        status: 'ended',
        endedReason: VAPI_SCRIPT.endedReason as Vapi.CallEndedReason,
        startedAt: startedAt.toISOString(),
        updatedAt: timeline.endedAt.toISOString(),
        endedAt: timeline.endedAt.toISOString(),
      };
      ended.artifact = artifactFor(ended, VAPI_SCRIPT, timeline);
      ended.analysis = analysisFor(VAPI_SCRIPT, timeline);
      const serverHeaders = (placed.assistantOverrides?.server?.headers ?? {}) as Record<string, string>;
      return [
        statusUpdate(started, 'in-progress', ourNumber, startedAt),
        endOfCallReport(ended, ourNumber, new Date(timeline.endedAt.getTime() + 3_000)),
      ].map((message) => {
        const body = JSON.stringify(message);
        return {
          body,
          headers: async () => ({ 'content-type': 'application/json', ...serverHeaders, ...vapi.headersFor(body) }),
        };
      });
    },
  };
}

function retellDriver(retell: RetellEmulator): Driver {
  const client = new Retell({ apiKey: KEY.retell, baseURL: retell.baseUrl });
  return {
    provider: 'retell',
    script: (phone) =>
      retell.script(phone, {
        disconnectionReason: 'agent_hangup',
        durationSeconds: 95,
        analysis: { outcome: 'converted', language: 'en-US' },
        recordingUrl: 'https://storage.retell.example/rec.wav',
      }),
    createBody(id) {
      const call = retell.calls.find((c) => c.providerCallId === id);
      if (!call) throw new Error(`retell emulator: no call ${id}`);
      return call.request;
    },
    async sdkCreate(body) {
      const created = await client.call.createPhoneCall(body as Retell.CallCreatePhoneCallParams, { maxRetries: 0 });
      return created.call_id;
    },
    reportAt: (id) => retell.timeline(id).reportAt,
    // call_started, call_ended, call_analyzed, as Retell sends them.
    life: (id) =>
      retell.webhooksFor(id).map((payload) => {
        const body = JSON.stringify(payload);
        return { body, headers: () => retell.headersFor(body) };
      }),
  };
}

/** The adapter with the time of its last placeCall (the SDK request and the adapter's own work around it). */
function timedAdapter(adapter: VoiceProviderAdapter): { adapter: VoiceProviderAdapter; lastMs: () => number } {
  let last = Number.NaN;
  return {
    adapter: {
      ...adapter,
      async placeCall(credentials, request) {
        const t0 = performance.now();
        try {
          return await adapter.placeCall(credentials, request);
        } finally {
          last = performance.now() - t0;
        }
      },
    },
    lastMs: () => last,
  };
}

const nothing: Telephony = { placeCall: async () => {} };

export async function benchVoice(
  server: TestServer,
  emulators: ProviderEmulators,
  kind: DatabaseKind,
  settings: VoiceSettings,
  log: (m: string) => void,
): Promise<Figure[]> {
  const services = server.service.services;
  const voice = services.voice;
  if (!voice?.credentialsKey) throw new Error('the bench service has no voice providers (PROVIDER_CREDENTIALS_KEY)');
  const db = services.db;
  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const res = await server.request(ADMIN_TOKEN, 'POST', '/graphql', { query, variables });
    if (res.status !== 200 || res.json?.errors) throw new Error(`GraphQL: ${res.status} ${res.text.slice(0, 500)}`);
    return res.json.data;
  };
  const due = (
    await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "Enrollment" WHERE "active" AND "nextAttemptAt" <= $1::timestamptz`,
      [services.clock.now()],
    )
  ).rows[0].n;
  if (due > 0)
    throw new Error(
      `${due} enrollments are already due: the voice figures need a dialer that claims only their own call (run them before board and calls)`,
    );

  let phoneSeq = 0;
  const figures: Figure[] = [];
  for (const driver of [vapiDriver(emulators.vapi), retellDriver(emulators.retell)]) {
    const { provider } = driver;
    log(`   ${provider}: placing calls and applying their end-of-call webhooks…`);
    const account = await server.createAccount();
    await graphql('mutation ($i: JSON!) { setProviderCredentials(input: $i) { provider } }', {
      i: { accountId: account.accountId, provider, apiKey: KEY[provider], webhookSecret: SECRET[provider] },
    });
    const { createAgent } = await graphql('mutation ($i: JSON!) { createAgent(input: $i) { id } }', {
      i: {
        accountId: account.accountId,
        name: 'Ava',
        status: 'live',
        provider,
        ...AGENT[provider],
        callNewContactsImmediately: true,
        workingHours: ALWAYS_OPEN,
        timezone: 'America/Chicago',
      },
    });
    const { createWorkflow } = await graphql(
      'mutation ($a: String!, $g: String!) { createWorkflow(accountId: $a, agentId: $g, name: "Bench", status: published) { id } }',
      { a: account.accountId, g: createAgent.id },
    );
    const adapter = voice.adapters[provider];
    if (!adapter) throw new Error(`the bench service has no ${provider} adapter`);
    const timing = timedAdapter(adapter);
    const dialerServices: Pick<Services, 'db' | 'clock' | 'voice'> = {
      db,
      clock: services.clock,
      voice: { ...voice, adapters: { ...voice.adapters, [provider]: timing.adapter } },
    };
    const webhookUrl = `${server.baseUrl}/api/telephony/${provider}/${account.accountId}`;
    // The provider's side of a webhook is not ours to time: node:http on a kept-alive connection
    // costs the sender far less than fetch (undici), whose own work would count in the figure.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = async (message: Message) => {
      const headers = await message.headers();
      return timed(
        () =>
          new Promise<{ status: number; text: string }>((resolve, reject) => {
            const req = httpRequest(
              webhookUrl,
              { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(message.body) } },
              (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (chunk: Buffer) => chunks.push(chunk));
                res.on('end', () =>
                  resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
                );
                res.on('error', reject);
              },
            );
            req.on('error', reject);
            req.end(message.body);
          }),
      );
    };

    const own: number[] = [];
    const sdk: number[] = [];
    const dialer: number[] = [];
    const adapterMs: number[] = [];
    const hook: number[] = [];
    const raw: number[] = [];
    let endBytes = 0;
    let endEvents = '';
    for (let i = 0; i < settings.warmup + settings.calls; i++) {
      const phone = `+1608555${String(1000 + phoneSeq++).padStart(4, '0')}`;
      driver.script(phone);
      const enrolled = await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
        phone,
        firstName: 'Ada',
        lastName: 'Lovelace',
        customFields: { plan: 'gold' },
        assignmentOptions: { workflowId: createWorkflow.id },
      });
      if (enrolled.status >= 300)
        throw new Error(`enrolling a contact: ${enrolled.status} ${enrolled.text.slice(0, 300)}`);
      const contactId = enrolled.json.id as string;

      // The dialer placing the one claimed call, then the bare SDK create with the same body.
      const [dialMs, run] = await timed(() => runDialerOnce(dialerServices, nothing));
      if (run.placed.length !== 1 || run.placed[0].contactId !== contactId)
        throw new Error(`${provider}: the dialer placed ${run.placed.length} calls (expected this contact's one)`);
      const callId = run.placed[0].callId;
      const {
        rows: [call],
      } = await db.sql.query<{ status: string; providerCallId: string | null }>(
        `SELECT "status", "providerCallId" FROM "Call" WHERE "id" = $1::uuid`,
        [callId],
      );
      if (call?.status !== 'queued' || !call.providerCallId)
        throw new Error(
          `${provider}: the placed call is ${JSON.stringify(call)} (expected queued with the provider's id)`,
        );
      const body = driver.createBody(call.providerCallId);
      const [sdkMs] = await timed(() => driver.sdkCreate(body));

      // The call's life up to its end: the messages before the last one untimed, the last one timed,
      // once the clock has reached the time the provider reports the end.
      benchClock.reach(driver.reportAt(call.providerCallId));
      const life = driver.life(call.providerCallId);
      for (const message of life.slice(0, -1)) {
        const [, answer] = await post(message);
        if (answer.status !== 200)
          throw new Error(`${provider} webhook before the end: ${answer.status} ${answer.text.slice(0, 300)}`);
      }
      const end = life[life.length - 1];
      const [hookMs, answer] = await post(end);
      if (answer.status !== 200 || JSON.parse(answer.text).status !== 'applied')
        throw new Error(`${provider} end-of-call webhook: ${answer.status} ${answer.text.slice(0, 300)}`);
      const [rawMs, res] = await timed(() =>
        db.sql.query(RAW_CONTACT_UPDATE, [contactId, account.accountId, new Date().toISOString()]),
      );
      if (res.rowCount !== 1) throw new Error('raw contact UPDATE touched no row');
      if (i < settings.warmup) continue;
      dialer.push(dialMs);
      sdk.push(sdkMs);
      own.push(Math.max(dialMs - sdkMs, 0));
      adapterMs.push(timing.lastMs());
      hook.push(hookMs);
      raw.push(rawMs);
      endBytes = end.body.length;
      endEvents = (JSON.parse(answer.text).events as string[]).join(', ');
    }
    agent.destroy();
    // Every call ended once, converted, with its transcript.
    const {
      rows: [check],
    } = await db.sql.query<{ ended: number; converted: number; reports: number; events: number }>(
      `SELECT count(*) FILTER (WHERE "status" = 'ended')::int AS ended, count(*) FILTER (WHERE "result" = 'converted')::int AS converted,
         count(*) FILTER (WHERE "reportReady")::int AS reports,
         (SELECT count(*)::int FROM "DomainEvent" WHERE "accountId" = $1::uuid AND "type" = 'call.ended') AS events
       FROM "Call" WHERE "accountId" = $1::uuid`,
      [account.accountId],
    );
    const placed = settings.warmup + settings.calls;
    if (check.ended !== placed || check.converted !== placed || check.reports !== placed || check.events !== placed) {
      throw new Error(`${provider}: ${JSON.stringify(check)} for ${placed} calls placed`);
    }

    const name = provider === 'vapi' ? 'Vapi' : 'Retell';
    const postgresOnly = (target: string) =>
      kind === 'postgres' ? target : `${target} (stated for PostgreSQL; informational here)`;
    const dialerStats = stats(dialer);
    const sdkStats = stats(sdk);
    const adapterStats = stats(adapterMs);
    figures.push(
      figure(own, sdk, {
        id: `place-call-${provider}`,
        name: `Placing a ${name} call: the dialer's own work over the SDK create (claim, credentials, create, settle)`,
        target: postgresOnly('≤ 5 ms p50 over the SDK call'),
        pass: (s) => (kind === 'postgres' ? s.p50 <= 5 : null),
        notes:
          `runDialerOnce placing one claimed call through the ${provider} adapter to its emulator (loopback), ${own.length} calls; ` +
          `"service" is each run minus the bare SDK create with the same body sent right after it ("raw"). ` +
          `Whole dialer run p50 ${dialerStats.p50} / p95 ${dialerStats.p95} ms; the adapter's placeCall inside it p50 ${adapterStats.p50} ms.`,
        extra: { dialerMs: dialerStats, adapterPlaceCallMs: adapterStats, sdkCreateMs: sdkStats },
      }),
    );
    figures.push(
      figure(hook, raw, {
        id: `webhook-${provider}`,
        name: `${name} end-of-call webhook applied (POST /api/telephony/${provider}/{accountId} → 200)`,
        target: postgresOnly('p50 < 5 ms'),
        pass: (s) => (kind === 'postgres' ? s.p50 < 5 : null),
        notes:
          `${hook.length} calls, each ${provider === 'vapi' ? 'end-of-call-report after status-update in-progress' : 'call_analyzed after call_started and call_ended'} (untimed); ` +
          `${endBytes} bytes signed by the emulator's helper; credentials read and decrypted, signature checked, then its events applied in one transaction ` +
          `(${provider === 'vapi' ? 'call.ended, report.ready' : 'call.started, call.ended, report.ready'}: ${endEvents}); the call converted, 2 transcript lines, a recording URL. ` +
          `Raw: one UPDATE of the contact row through the driver (the call-ended figure's baseline).`,
        extra: { bodyBytes: endBytes, events: endEvents },
      }),
    );
  }
  return figures;
}
