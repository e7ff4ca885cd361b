// `npm run demo:board`: the board app's walk-through, offline. It starts monday's emulator
// (test/support/monday-emulator) and the whole service in this process on an in-memory
// database with the demo account, configures the board app through the same MONDAY_*
// variables an operator sets, then plays the story: link the account through the real OAuth
// install, map a board over GraphQL, build the recipes the app manifest describes, fill one
// item's timezone, flip the items to "Call", let the simulated agent call them, and watch the
// "when a call ends" trigger write each result back as a status label. Any step that does not
// go as described stops the demo with a message and a non-zero exit code.

// Before anything imports the logger: the project's modules are imported in main(), dynamically.
process.env.LOG_LEVEL = 'silent';

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Browser } from '../test/support/browser.js';
import type { ActionRun, MondayEmulator } from '../test/support/monday-emulator/index.js';
import type { RunningService } from '../src/service.js';
import { check, DemoFailure, runDemo, say, step, until } from './demo-steps.js';

const DEADLINE_MS = 90_000;
const MONDAY_ACCOUNT_ID = 4_200_001;
const MONDAY_USER_ID = 77;
const BOARD_APP = '/integrations/monday';

/** The leads on the sample board. The simulator's outcome is fixed per phone number. */
const LEADS = [
  {
    name: 'Ada Lovelace',
    phone: '+14155552672',
    country: 'US',
    timezone: 'America/Los_Angeles',
    company: 'Analytical Engines',
    expect: { result: 'converted', label: 'Booked' },
  },
  {
    name: 'Grace Hopper',
    phone: '+14155552671',
    country: 'US',
    timezone: 'America/Los_Angeles',
    company: 'Navy Labs',
    expect: { result: 'busy', label: 'Busy' },
  },
  {
    name: 'Alan Turing',
    phone: '+442079460958',
    country: 'GB',
    timezone: null,
    company: 'Bletchley Park',
    expect: { result: 'answered', label: 'Answered' },
  },
  {
    name: 'Katherine Johnson',
    phone: '+14155552675',
    country: 'US',
    timezone: 'America/Los_Angeles',
    company: 'Langley',
    expect: { result: 'voicemail', label: null },
  },
  { name: 'Edsger Dijkstra', phone: null, country: null, timezone: null, company: 'Eindhoven', expect: null },
] as const;

// ---------------------------------------------------------------------------------------------
// The app manifest: the recipes below are built from its blocks, URLs and sentences.

interface ManifestField {
  key: string;
  primitiveType?: 'string' | 'number' | 'boolean' | 'date';
}
interface ManifestBlock {
  key: string;
  runUrl?: string;
  subscribeUrl?: string;
  unsubscribeUrl?: string;
  remoteOptionsUrl?: string;
  outputFields?: ManifestField[];
}
interface ManifestRecipe {
  key: string;
  sentence: { trigger: string; action: string };
}
interface Manifest {
  app: {
    oauth: { scopes: string[] };
    features: Array<{
      type: string;
      data: {
        fieldTypes: ManifestBlock[];
        triggers: ManifestBlock[];
        actions: ManifestBlock[];
        recipes: ManifestRecipe[];
      };
    }>;
  };
}

const manifest = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../integration/monday/manifest.json'), 'utf8'),
) as Manifest;
const integration = manifest.app.features.find((f) => f.type === 'AppFeatureIntegration')!.data;
const byKey = <T extends { key: string }>(list: T[], key: string): T => {
  const found = list.find((entry) => entry.key === key);
  if (!found) throw new DemoFailure(`the manifest has no ${key}`);
  return found;
};
/** A manifest URL on this service. */
const urlOn = (baseUrl: string, url: string | undefined) => url!.replace('{{PUBLIC_BASE_URL}}', baseUrl);
/** A recipe sentence with its `{LABEL, fieldKey}` placeholders filled with what the user picked. */
function sentenceOf(recipeKey: string, picked: Record<string, string>): string {
  const { trigger, action } = byKey(integration.recipes, recipeKey).sentence;
  return `${trigger}, ${action}`.replace(/\{([^{},]+),\s*(\w+)\}/g, (_all, label: string, key: string) =>
    picked[key] ? `«${picked[key]}»` : `{${label}}`,
  );
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers: GraphQL with the API key (the install pages' browser: test/support/browser.ts).

async function graphql<T>(
  baseUrl: string,
  apiKey: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: Array<{ message: string }> };
  if (body.errors?.length || !body.data)
    throw new DemoFailure(
      `GraphQL answered ${response.status}: ${body.errors?.map((e) => e.message).join('; ') ?? 'no data'}`,
    );
  return body.data;
}

function describeRun(run: ActionRun): string {
  if (run.outcome === 'success') return `200 ${JSON.stringify(run.outputFields ?? {})}`;
  const severity =
    run.outcome === 'disabled' ? '6000, automation turned off' : run.notification ? '4000, run failed' : 'no severity';
  return `${run.attempts.at(-1)?.status ?? 'no answer'} (${severity}): "${run.notification?.title ?? run.runtimeError}" — ${run.notification?.description ?? ''}`;
}

// ---------------------------------------------------------------------------------------------

/** What main() started, for stopping it whether the story succeeds or not. */
const resources: { service: RunningService | null; monday: MondayEmulator | null } = { service: null, monday: null };

async function main(): Promise<void> {
  const { startMondayEmulator } = await import('../test/support/monday-emulator/index.js');
  const { startService } = await import('../src/service.js');
  const { loadMondayConfig } = await import('../integration/monday/config.js');

  step('1. Start monday (the emulator) and Contactline (in memory, with the demo account)');
  const signingSecret = randomBytes(24).toString('base64url');
  const clientId = 'contactline-demo-client';
  const clientSecret = randomBytes(24).toString('base64url');
  const appId = 10155;
  const monday = await startMondayEmulator({ signingSecret, appId, oauth: { clientId, clientSecret } });
  resources.monday = monday;
  // What an operator sets (docs/board-app.md, "Register the app"), pointed at the emulator instead of monday.com.
  Object.assign(process.env, {
    MONDAY_SIGNING_SECRET: signingSecret,
    MONDAY_APP_ID: String(appId),
    MONDAY_CLIENT_ID: clientId,
    MONDAY_CLIENT_SECRET: clientSecret,
    MONDAY_TOKEN_KEY: randomBytes(32).toString('base64'),
    MONDAY_OAUTH_URL: monday.origin,
    MONDAY_OAUTH_SCOPES: manifest.app.oauth.scopes.join(' '),
    MONDAY_API_URL: monday.url,
    MONDAY_API_VERSION: '2026-10',
  });
  const config = await loadMondayConfig();
  check(config, 'loadMondayConfig() found no board app configuration in the environment');
  const service = await startService({
    // Simulated calls last their duration, 60 times faster than real time (a 210 s call: 3.5 s).
    env: {
      PORT: 0,
      HOST: '127.0.0.1',
      REGION: 'us',
      DATA_DIR: '',
      DATABASE_URL: undefined,
      ADMIN_TOKEN: undefined,
      TELEPHONY_WEBHOOK_SECRETS: undefined,
      SIMULATED_CALL_SPEED: 60,
    },
    inMemory: true,
    seedDemo: true,
    monday: config,
  });
  resources.service = service;
  // PUBLIC_BASE_URL in production; here the port is only known now. monday's JWT `aud` is checked against it.
  config.publicBaseUrl = service.baseUrl;
  const { baseUrl, demo } = service;
  check(demo, 'the in-memory database did not get the demo account');
  const workflow = await service.services.db.prisma.workflow.findUniqueOrThrow({ where: { id: demo.workflowId } });
  const agent = await service.services.db.prisma.agent.findUniqueOrThrow({ where: { id: demo.agentId } });
  say(`  monday emulator   ${monday.origin} (GraphQL ${monday.url}, OAuth, automations)`);
  say(`  Contactline       ${baseUrl} (board app under ${BOARD_APP})`);
  say(
    `  demo account      workflow "${workflow.name}" (published), agent "${agent.name}" (live, calls new contacts at once)`,
  );

  step("2. Link the monday account: install page, API key, monday's consent, callback");
  const browser = new Browser();
  const page = await browser.go(`${baseUrl}${BOARD_APP}/install`);
  check(page.status === 200, `GET /install answered ${page.status}: ${page.text.slice(0, 200)}`);
  const form = /name="form" value="([^"]*)"/.exec(page.text)?.[1];
  check(form, 'the install page has no form token');
  say(`  GET  ${BOARD_APP}/install          → ${page.status} (form asking for a Contactline API key)`);
  const posted = await browser.go(`${baseUrl}${BOARD_APP}/install`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ apiKey: demo.apiKey, form }).toString(),
  });
  check(
    posted.status === 302 && posted.location?.startsWith(`${monday.origin}/oauth2/authorize`),
    `POST /install answered ${posted.status} (${posted.location ?? posted.text.slice(0, 200)})`,
  );
  say(
    `  POST ${BOARD_APP}/install          → 302 to monday's consent page (scopes: ${new URL(posted.location!).searchParams.get('scope')})`,
  );
  monday.oauth!.approveAs(MONDAY_ACCOUNT_ID, MONDAY_USER_ID);
  const consent = await fetch(posted.location!, { redirect: 'manual' });
  const callbackUrl = consent.headers.get('location');
  check(consent.status === 302 && callbackUrl, `monday's consent answered ${consent.status}`);
  say(
    `  monday: user ${MONDAY_USER_ID} of account ${MONDAY_ACCOUNT_ID} approves → 302 to ${new URL(callbackUrl).pathname}`,
  );
  const callback = await browser.go(callbackUrl);
  check(
    callback.status === 200 && callback.text.includes('is now linked'),
    `the OAuth callback answered ${callback.status}: ${callback.text
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 300)}`,
  );
  say(`  GET  ${BOARD_APP}/oauth/callback   → 200 "Connected" (monday token stored encrypted)`);
  const { mondayLink } = await graphql<{ mondayLink: { mondayAccountId: string; mondayUserId: string } | null }>(
    baseUrl,
    demo.apiKey,
    '{ mondayLink { mondayAccountId mondayUserId } }',
  );
  check(mondayLink?.mondayAccountId === String(MONDAY_ACCOUNT_ID), `mondayLink is ${JSON.stringify(mondayLink)}`);
  say(`  GraphQL mondayLink → monday account ${mondayLink.mondayAccountId}, user ${mondayLink.mondayUserId}`);

  step('3. A sample board on monday, and its mapping in Contactline (GraphQL with the API key)');
  const board = monday.addBoard({
    accountId: MONDAY_ACCOUNT_ID,
    name: 'Leads',
    columns: [
      { id: 'phone', type: 'phone', title: 'Phone' },
      { id: 'tz', type: 'world_clock', title: 'Timezone' },
      { id: 'company', type: 'text', title: 'Company' },
      { id: 'stage', type: 'status', title: 'Stage', labels: ['New lead', 'Call'] },
      {
        id: 'outcome',
        type: 'status',
        title: 'Call outcome',
        labels: ['Booked', 'Unqualified', 'Not interested', 'Answered', 'Busy'],
      },
    ],
  });
  const items = LEADS.map((lead) => ({
    lead,
    item: monday.addItem({
      boardId: board.id,
      name: lead.name,
      values: {
        company: lead.company,
        ...(lead.phone ? { phone: { phone: lead.phone, countryShortName: lead.country } } : {}),
        ...(lead.timezone ? { tz: { timezone: lead.timezone } } : {}),
      },
    }),
  }));
  say(`  board "${board.name}" (${board.id}) with ${items.length} items: ${LEADS.map((l) => l.name).join(', ')}`);
  const { mondayBoard } = await graphql<{
    mondayBoard: { name: string; columns: Array<{ id: string; title: string; type: string }> };
  }>(baseUrl, demo.apiKey, 'query ($id: String!) { mondayBoard(boardId: $id) { name columns { id title type } } }', {
    id: board.id,
  });
  say(`  mondayBoard → columns ${mondayBoard.columns.map((c) => `${c.id} (${c.type})`).join(', ')}`);
  const { setBoardMapping } = await graphql<{
    setBoardMapping: { boardId: string; timezoneColumnType: string; statusLabels: Record<string, string | null> };
  }>(
    baseUrl,
    demo.apiKey,
    'mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId timezoneColumnType statusLabels } }',
    {
      input: {
        boardId: board.id,
        itemNameIsFullName: true,
        phoneColumnId: 'phone',
        timezoneColumnId: 'tz',
        extraFields: [{ columnId: 'company', identifier: 'company' }],
      },
    },
  );
  check(setBoardMapping.boardId === board.id, `setBoardMapping mapped board ${setBoardMapping.boardId}`);
  say(
    '  setBoardMapping → item name = full name, phone ← Phone, timezone ← Timezone (world_clock), customFields.company ← Company',
  );
  const labels = setBoardMapping.statusLabels;
  say(
    `  status labels (the default) → converted: ${labels.converted}, answered: ${labels.answered}, busy: ${labels.busy}, voicemail: ${labels.voicemail ?? 'unchanged'}, no_answer: ${labels.no_answer ?? 'unchanged'}`,
  );

  step('4. The recipes, as the manifest describes them (options loaded from Contactline)');
  const fillTimezone = byKey(integration.actions, 'fill_timezone');
  const enroll = byKey(integration.actions, 'enroll_item');
  const setStatus = byKey(integration.actions, 'set_status_from_call');
  const callEnded = byKey(integration.triggers, 'call_ended');
  const who = { accountId: MONDAY_ACCOUNT_ID, userId: MONDAY_USER_ID };
  const workflows = await monday.fetchOptions({
    ...who,
    url: urlOn(baseUrl, byKey(integration.fieldTypes, 'contactline_workflow').remoteOptionsUrl),
    boardId: board.id,
  });
  const agents = await monday.fetchOptions({
    ...who,
    url: urlOn(baseUrl, byKey(integration.fieldTypes, 'contactline_voice_agent').remoteOptionsUrl),
    boardId: board.id,
  });
  const workflowOption = workflows.options.find((o) => o.value === demo.workflowId);
  const agentOption = agents.options.find((o) => o.value === demo.agentId);
  check(
    workflowOption && agentOption,
    `remote options: workflows ${JSON.stringify(workflows.options)}, agents ${JSON.stringify(agents.options)}`,
  );
  say(
    `  workflow picker: ${workflows.options.map((o) => o.title).join(', ')}; voice agent picker: ${agents.options.map((o) => o.title).join(', ')}`,
  );

  await monday.createRecipe({
    ...who,
    boardId: board.id,
    trigger: { kind: 'status_change', columnId: 'stage', toLabel: 'New lead' },
    action: {
      url: urlOn(baseUrl, fillTimezone.runUrl),
      inputFields: (out, context) => ({
        boardId: context.boardId,
        itemId: out.itemId,
        phoneColumnId: 'phone',
        timezoneColumnId: 'tz',
      }),
    },
  });
  say(
    `  ${sentenceOf('fill_timezone_on_status_change', { statusColumnId: 'Stage', statusColumnValue: 'New lead', timezoneColumnId: 'Timezone', phoneColumnId: 'Phone' })}`,
  );
  await monday.createRecipe({
    ...who,
    boardId: board.id,
    trigger: { kind: 'status_change', columnId: 'stage', toLabel: 'Call' },
    action: {
      url: urlOn(baseUrl, enroll.runUrl),
      inputFields: (out, context) => ({ boardId: context.boardId, itemId: out.itemId, workflowId: workflowOption }),
    },
  });
  say(
    `  ${sentenceOf('enroll_on_status_change', { statusColumnId: 'Stage', statusColumnValue: 'Call', workflowId: workflowOption.title })}`,
  );
  const outputTypes = Object.fromEntries((callEnded.outputFields ?? []).map((f) => [f.key, f.primitiveType!]));
  const resultRecipe = await monday.createRecipe({
    ...who,
    boardId: board.id,
    trigger: {
      kind: 'app',
      subscribeUrl: urlOn(baseUrl, callEnded.subscribeUrl),
      unsubscribeUrl: urlOn(baseUrl, callEnded.unsubscribeUrl),
      inputFields: ({ boardId }) => ({ boardId, agentId: agentOption }),
      // The emulator refuses deliveries that do not match the declared outputs.
      outputFields: outputTypes,
    },
    action: {
      url: urlOn(baseUrl, setStatus.runUrl),
      inputFields: (out) => ({
        boardId: out.boardId,
        itemId: out.itemId,
        statusColumnId: 'outcome',
        callResult: out.callResult,
      }),
    },
  });
  check(resultRecipe.subscription, 'the call-ended recipe has no subscription');
  say(
    `  ${sentenceOf('status_from_agent_call_result', { agentId: agentOption.title, statusColumnId: 'Call outcome' })}`,
  );
  say(
    `    (monday subscribed at ${new URL(urlOn(baseUrl, callEnded.subscribeUrl)).pathname}; webhook ${resultRecipe.subscription.webhookId})`,
  );

  step('5. Fill a timezone: Alan Turing\'s Stage → "New lead"');
  const turing = items.find((i) => i.lead.name === 'Alan Turing')!;
  const [fillRun] = await monday.changeStatus(turing.item.id, 'stage', 'New lead');
  check(
    fillRun?.outcome === 'success',
    `the fill-timezone run ended ${fillRun ? describeRun(fillRun) : 'without a run'}`,
  );
  const filled = monday.readValue(turing.item.id, 'tz').text;
  check(filled === 'Europe/London', `the Timezone column holds ${filled}`);
  say(`  fill-timezone → ${describeRun(fillRun)}; Timezone column: ${filled}`);

  step('6. Flip every item\'s Stage to "Call": monday runs the enroll action for each');
  for (const { lead, item } of items) {
    const [run] = await monday.changeStatus(item.id, 'stage', 'Call');
    check(run, `no enroll run for ${lead.name}`);
    if (lead.phone) {
      check(run.outcome === 'success', `enrolling ${lead.name}: ${describeRun(run)}`);
      say(`  ${lead.name.padEnd(18)} enrolled: contact ${String(run.outputFields?.contactId).slice(0, 8)}…`);
    } else {
      check(
        run.outcome === 'failed' && run.notification?.title === 'Phone number missing',
        `${lead.name} (no phone): ${describeRun(run)}`,
      );
      say(`  ${lead.name.padEnd(18)} ${describeRun(run)}`);
    }
  }

  step('7. The agent calls; each ended call fires "when a call ends", which sets Call outcome');
  const called = items.filter((i) => i.lead.phone);
  const subscriptionId = String(resultRecipe.subscription.subscriptionId);
  const statusRuns = await until('the set-status runs of every call', () => {
    const runs = monday.actionRuns.filter((r) => r.recipe === resultRecipe.id);
    return runs.length >= called.length ? runs : null;
  });
  await monday.idle();
  const deliveries = monday.triggerDeliveries.filter((d) => d.subscriptionId === subscriptionId);
  check(
    deliveries.every((d) => d.outcome === 'accepted'),
    `trigger deliveries: ${deliveries.map((d) => `${d.status} ${d.outcome} ${d.problem ?? ''}`).join('; ')}`,
  );
  for (const { lead, item } of called) {
    const delivery = deliveries.find((d) => d.outputFields?.itemId === Number(item.id));
    check(delivery, `no call-ended delivery for ${lead.name}`);
    const out = delivery.outputFields!;
    check(
      out.callResult === lead.expect!.result,
      `${lead.name}'s call ended ${String(out.callResult)}, expected ${lead.expect!.result}`,
    );
    const run = statusRuns.find((r) => r.inputFields.itemId === Number(item.id));
    check(run?.outcome === 'success', `set-status for ${lead.name}: ${run ? describeRun(run) : 'no run'}`);
    const { label, changed } = run.outputFields as { label: string | null; changed: boolean };
    check(
      label === lead.expect!.label && changed === (label !== null),
      `set-status for ${lead.name} answered ${JSON.stringify(run.outputFields)}`,
    );
    say(
      `  ${lead.name.padEnd(18)} ${String(out.callResult).padEnd(9)} ${String(out.durationSeconds).padStart(3)} s, ${out.endReason}, last call: ${out.isLastCall ? 'yes' : 'no '} → ${changed ? `Call outcome = ${label}` : 'status left unchanged (result mapped to nothing)'}`,
    );
  }

  step('8. The board now');
  const rows = items.map(({ lead, item }) => {
    const snapshot = monday.readItem(item.id);
    return [
      lead.name,
      snapshot.values.phone.text || '—',
      snapshot.values.tz.text || '—',
      snapshot.values.stage.label ?? '—',
      snapshot.values.outcome.label ?? '—',
    ];
  });
  const header = ['Item', 'Phone', 'Timezone', 'Stage', 'Call outcome'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i])).join('  ')}`.trimEnd();
  say(line(header));
  say(line(widths.map((w) => '─'.repeat(w))));
  for (const row of rows) say(line(row));
  for (const [index, { lead }] of items.entries()) {
    const expected = lead.expect?.label ?? '—';
    check(rows[index][4] === expected, `${lead.name}'s Call outcome is ${rows[index][4]}, expected ${expected}`);
  }
}

async function stop() {
  await resources.service?.stop();
  await resources.monday?.close();
}

runDemo({ main, stop, stopStep: '9. Stop', stopped: 'stopped Contactline and the emulator', deadlineMs: DEADLINE_MS });
