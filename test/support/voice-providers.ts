// What the Vapi and Retell end-to-end suites share, so each suite writes only its own verbs: each
// provider's emulator behind the same base (credentials, the agent's provider ids, a converted or
// busy conversation, the env that points the service at it), and a suite fixture with a test
// server on the suite's clock, the dialer, operator GraphQL and an Account set up on the provider.
import { afterAll, beforeAll, expect } from 'vitest';
import { createSimulatedTelephony } from '../../src/calls/telephony/simulator.adapter.js';
import { runDialerOnce } from '../../src/jobs/dialer.js';
import type { Clock } from '../../src/domain/shared/clock.js';
import {
  ADMIN_TOKEN,
  startTestServer,
  type TestAccount,
  type TestServer,
  type TestServerOptions,
} from './test-server.js';
import { testDatabaseKinds, type DatabaseKind } from './databases.js';
import { startVapiEmulator, type StartVapiEmulatorOptions, type VapiEmulator } from './vapi-emulator/index.js';
import { startRetellEmulator, type RetellEmulator, type StartRetellEmulatorOptions } from './retell-emulator/index.js';
import { ALWAYS_OPEN } from './working-hours.js';

export type Provider = 'vapi' | 'retell';

/** One case per database and provider, for describe.each. */
export const providerCases = () =>
  testDatabaseKinds().flatMap((kind) => (['vapi', 'retell'] as const).map((provider) => [kind, provider] as const));

/** The verbs both providers' emulators offer alike; a suite's driver adds its own. */
export interface ProviderBase {
  provider: Provider;
  apiUrl: string;
  /** The provider URL of the service's env (VAPI_API_URL or RETELL_API_URL) set to this emulator. */
  env: NonNullable<TestServerOptions['voice']>;
  credentials: { apiKey: string; webhookSecret: string };
  agent: { providerAgentId: string; providerPhoneNumber: string };
  /** A conversation (95 s unless told) the analysis calls converted, with a transcript and recordingUrl. */
  scriptConverted(phone: string, durationSeconds?: number): void;
  recordingUrl: string;
  /** The provider's end reason of that conversation, and of a busy line. */
  convertedReason: string;
  scriptBusy(phone: string): void;
  busyReason: string;
  /** The call's life as the provider times it: picked up (null: never), ended, and when its report is sent. */
  timeline(providerCallId: string): { startedAt: Date | null; endedAt: Date; reportAt: Date };
  stop(): Promise<void>;
}

/** Each provider's fixture values: test credentials, the agent's provider ids, end reasons and a recording. */
const FIXTURES = {
  vapi: {
    env: 'VAPI_API_URL',
    credentials: { apiKey: 'vapi-private-key-test-0001', webhookSecret: 'vapi-webhook-secret-test-0001' },
    agent: {
      providerAgentId: '5c2f7d0e-0000-4000-8000-00000000a551',
      providerPhoneNumber: '5c2f7d0e-0000-4000-8000-0000000000f0',
    },
    convertedReason: 'customer-ended-call',
    busyReason: 'customer-busy',
    recordingUrl: 'https://storage.vapi.example/rec.wav',
  },
  retell: {
    env: 'RETELL_API_URL',
    credentials: { apiKey: 'key_retell_test_0001', webhookSecret: 'key_retell_webhook_0001' },
    agent: { providerAgentId: 'agent_7f3a', providerPhoneNumber: '+14155550177' },
    convertedReason: 'agent_hangup',
    busyReason: 'dial_busy',
    recordingUrl: 'https://storage.retell.example/rec.wav',
  },
} as const;

interface EmulatorOptions {
  /** The emulator's clock: the service's, so that signatures and call times agree. */
  now: () => Date;
  concurrencyLimit: number;
}

type ScriptExtras = {
  durationSeconds?: number;
  analysis?: { outcome: string; language: string };
  recordingUrl?: string;
};

/** The base verbs over one emulator; `script` scripts a call with the provider's own name for the end reason. */
function providerBase(
  provider: Provider,
  emulator: { baseUrl: string; timeline: ProviderBase['timeline']; stop(): Promise<void> },
  script: (phone: string, reason: string, extras?: ScriptExtras) => void,
): ProviderBase {
  const fixture = FIXTURES[provider];
  return {
    provider,
    apiUrl: emulator.baseUrl,
    env: { [fixture.env]: emulator.baseUrl },
    credentials: { ...fixture.credentials },
    agent: { ...fixture.agent },
    scriptConverted: (phone, durationSeconds = 95) =>
      script(phone, fixture.convertedReason, {
        durationSeconds,
        analysis: { outcome: 'converted', language: 'en-US' },
        recordingUrl: fixture.recordingUrl,
      }),
    recordingUrl: fixture.recordingUrl,
    convertedReason: fixture.convertedReason,
    scriptBusy: (phone) => script(phone, fixture.busyReason),
    busyReason: fixture.busyReason,
    timeline: (id) => emulator.timeline(id),
    stop: () => emulator.stop(),
  };
}

/** The Vapi emulator and its base verbs (`concurrencyRefusal`: the emulator's, default its own). */
export async function startVapiBase(
  options: EmulatorOptions & Pick<StartVapiEmulatorOptions, 'concurrencyRefusal'>,
): Promise<{ vapi: VapiEmulator; base: ProviderBase }> {
  const vapi = await startVapiEmulator({
    ...FIXTURES.vapi.credentials,
    concurrencyLimit: options.concurrencyLimit,
    concurrencyRefusal: options.concurrencyRefusal,
    now: options.now,
  });
  return {
    vapi,
    base: providerBase('vapi', vapi, (phone, endedReason, extras) => vapi.script(phone, { endedReason, ...extras })),
  };
}

/** The Retell emulator (no webhook retries) and its base verbs (`concurrencyRefusal`: the emulator's, default its own). */
export async function startRetellBase(
  options: EmulatorOptions & Pick<StartRetellEmulatorOptions, 'concurrencyRefusal'>,
): Promise<{ retell: RetellEmulator; base: ProviderBase }> {
  const retell = await startRetellEmulator({
    ...FIXTURES.retell.credentials,
    concurrencyLimit: options.concurrencyLimit,
    concurrencyRefusal: options.concurrencyRefusal,
    webhookRetries: 0,
    now: options.now,
  });
  return {
    retell,
    base: providerBase('retell', retell, (phone, disconnectionReason, extras) =>
      retell.script(phone, { disconnectionReason, ...extras }),
    ),
  };
}

export interface ProviderSuite<D extends ProviderBase> {
  /** Both filled in by beforeAll: read them inside hooks and tests only. */
  server: TestServer;
  driver: D;
  services(): TestServer['service']['services'];
  prisma(): TestServer['service']['services']['db']['prisma'];
  /** The simulated telephony the dialer falls back to (the suites' agents all call through a provider). */
  simulator: ReturnType<typeof createSimulatedTelephony>;
  /** One dialer pass. */
  dial(): ReturnType<typeof runDialerOnce>;
  /** Operator GraphQL that must answer without errors; returns its data. */
  graphql(query: string, variables: Record<string, unknown>): Promise<any>;
  /**
   * An Account with the provider's credentials, a live agent on it (calls new contacts at once,
   * always open, America/Chicago) and a published workflow "W"; `agent` and `credentials` add fields.
   */
  setupAccount(extra?: {
    agent?: Record<string, unknown>;
    credentials?: Record<string, unknown>;
  }): Promise<TestAccount & { agentId: string; workflowId: string }>;
}

/**
 * For a describe block: in beforeAll, starts the suite's driver and a test server on `clock`
 * pointed at it (with `adapters` when given); in afterAll, stops both.
 */
export function useProviderSuite<D extends ProviderBase>(
  kind: DatabaseKind,
  startDriver: () => Promise<D>,
  options: { clock: Clock; adapters?: NonNullable<TestServerOptions['voice']>['adapters'] },
): ProviderSuite<D> {
  const server = {} as TestServer;
  const driver = {} as D;
  beforeAll(async () => {
    Object.assign(driver, await startDriver());
    Object.assign(
      server,
      await startTestServer(kind, { clock: options.clock, voice: { ...driver.env, adapters: options.adapters } }),
    );
  });
  afterAll(async () => {
    await server.stop?.();
    await driver.stop?.();
  });

  const services = () => server.service.services;
  const simulator = createSimulatedTelephony({ sink: async () => {}, delayMs: 0 });
  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const res = await server.request(ADMIN_TOKEN, 'POST', '/graphql', { query, variables });
    expect(res.json.errors, JSON.stringify(res.json.errors)).toBeUndefined();
    return res.json.data;
  };
  return {
    server,
    driver,
    services,
    prisma: () => services().db.prisma,
    simulator,
    dial: () => runDialerOnce(services(), simulator),
    graphql,
    async setupAccount(extra = {}) {
      const account = await server.createAccount();
      await graphql('mutation ($i: JSON!) { setProviderCredentials(input: $i) { provider } }', {
        i: { accountId: account.accountId, provider: driver.provider, ...driver.credentials, ...extra.credentials },
      });
      const { createAgent } = await graphql('mutation ($i: JSON!) { createAgent(input: $i) { id } }', {
        i: {
          accountId: account.accountId,
          name: 'Ava',
          status: 'live',
          provider: driver.provider,
          ...driver.agent,
          callNewContactsImmediately: true,
          workingHours: ALWAYS_OPEN,
          timezone: 'America/Chicago',
          ...extra.agent,
        },
      });
      const { createWorkflow } = await graphql(
        'mutation ($a: String!, $g: String!) { createWorkflow(accountId: $a, agentId: $g, name: "W", status: published) { id } }',
        { a: account.accountId, g: createAgent.id },
      );
      return { ...account, agentId: createAgent.id as string, workflowId: createWorkflow.id as string };
    },
  };
}
