// accounts / users / keys / workflows / blocklist: operator commands over the operator
// GraphQL mutations, run in-process with an admin context (see operator.ts).
import { Command, InvalidArgumentError, Option } from 'commander';
import { createOutput, jsonOption, usageError } from './output.js';
import { readEnv, withOperator } from './operator.js';
import { UUID_PATTERN } from '../domain/shared/ids.js';
import { KEY_SCOPES } from '../domain/api-keys/key-scopes.js';
import type { AccountResult, AgentResult, WorkflowResult } from './operations.js';

/** Commander parser for ids: a malformed id is a usage error, not a database failure. */
export function uuidArg(value: string): string {
  if (!UUID_PATTERN.test(value))
    throw new InvalidArgumentError('must be a UUID (e.g. 0b5c3f9e-2d4a-4c59-9e0f-6f1b2a3c4d5e).');
  return value.toLowerCase();
}

function listArg(value: string): string[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0)
    throw new InvalidArgumentError('give at least one field, comma-separated (e.g. phone,externalId).');
  return items;
}

function printAccount(out: ReturnType<typeof createOutput>, verb: string, a: AccountResult) {
  out.line(`${verb} account ${a.id}`);
  out.line(`  name:             ${a.name}`);
  out.line(`  region:           ${a.region}`);
  out.line(`  default location: ${a.defaultLocation ?? '(none)'}`);
  out.line(`  dedup fields:     ${a.dedupFields.join(', ')}`);
}

function printWorkflow(out: ReturnType<typeof createOutput>, verb: string, w: WorkflowResult) {
  out.line(`${verb} workflow ${w.id}`);
  out.line(`  name:    ${w.name}`);
  out.line(`  account: ${w.accountId}`);
  out.line(`  status:  ${w.status}${w.paused ? ' (paused)' : ''}`);
}

export function accountsCommand(): Command {
  const accounts = new Command('accounts').description('create and configure Accounts (operator)');
  accounts
    .command('create')
    .description('create an Account')
    .requiredOption('--name <name>', 'account name')
    .option('--default-location <location>', 'default location for contacts without one (country, state or province)')
    .addOption(new Option('--region <region>', 'data region (default: REGION)').choices(['us', 'eu']))
    .addOption(jsonOption())
    .action(async (opts: { name: string; defaultLocation?: string; region?: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { createAccount } = await withOperator((s) =>
        s.run('createAccount', { name: opts.name, region: opts.region, defaultLocation: opts.defaultLocation }),
      );
      printAccount(out, 'Created', createAccount);
      out.result({ ok: true, accountId: createAccount.id, account: createAccount });
    });

  accounts
    .command('update')
    .description("set an Account's default location and/or dedup fields")
    .argument('<id>', 'account id', uuidArg)
    .addOption(new Option('--default-location <location>', 'new default location').conflicts('clearDefaultLocation'))
    .option('--clear-default-location', 'remove the default location')
    .option(
      '--dedup-fields <fields>',
      'ordered dedup fields, comma-separated: phone, externalId, customFields.<key>',
      listArg,
    )
    .addOption(jsonOption())
    .action(
      async (
        id: string,
        opts: { defaultLocation?: string; clearDefaultLocation?: boolean; dedupFields?: string[]; json?: boolean },
      ) => {
        const out = createOutput(!!opts.json);
        if (opts.defaultLocation === undefined && !opts.clearDefaultLocation && !opts.dedupFields) {
          throw usageError(
            'nothing to update: give --default-location, --clear-default-location and/or --dedup-fields',
          );
        }
        const { updateAccount } = await withOperator((s) =>
          s.run('updateAccount', {
            id,
            defaultLocation: opts.defaultLocation,
            clearDefaultLocation: opts.clearDefaultLocation ?? undefined,
            dedupFields: opts.dedupFields,
          }),
        );
        printAccount(out, 'Updated', updateAccount);
        out.result({ ok: true, accountId: updateAccount.id, account: updateAccount });
      },
    );
  return accounts;
}

export function usersCommand(): Command {
  const users = new Command('users').description('create, invite and remove users (operator)');
  users
    .command('create')
    .description('create a user in an Account')
    .requiredOption('--account <id>', 'account id', uuidArg)
    .requiredOption('--email <email>', 'email address')
    .option('--name <name>', 'display name')
    .addOption(jsonOption())
    .action(async (opts: { account: string; email: string; name?: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { createUser } = await withOperator((s) =>
        s.run('createUser', { accountId: opts.account, email: opts.email, name: opts.name }),
      );
      out.line(`Created user ${createUser.id} (${createUser.email}) in account ${createUser.accountId}`);
      out.result({ ok: true, userId: createUser.id, user: createUser });
    });
  users
    .command('invite')
    .description(
      "invite a person to the console: creates the Account's user of this email (or finds it) and prints a one-time link where they set a password",
    )
    .requiredOption('--account <id>', 'account id', uuidArg)
    .requiredOption('--email <email>', 'email address (an email signs in to one Account)')
    .option('--name <name>', 'display name')
    .addOption(jsonOption())
    .action(async (opts: { account: string; email: string; name?: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const env = await readEnv();
      const { inviteUser } = await withOperator((s) =>
        s.run('inviteUser', { accountId: opts.account, email: opts.email, name: opts.name }),
      );
      // The service's public address when set, else where `contactline serve` listens on this machine.
      const base = (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
      const link = `${base}${inviteUser.path}`;
      out.line(`Invited ${inviteUser.user.email} (user ${inviteUser.user.id}) to account ${inviteUser.user.accountId}`);
      out.line(`  One-time link (valid until ${inviteUser.expiresAt}): ${link}`);
      out.result({ ok: true, userId: inviteUser.user.id, link, expiresAt: inviteUser.expiresAt });
    });
  users
    .command('remove')
    .description(
      'remove a user from their Account: their console sessions end, their API keys and connected applications are revoked, and they cannot sign in until invited again',
    )
    .requiredOption('--user <id>', 'user id', uuidArg)
    .addOption(jsonOption())
    .action(async (opts: { user: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { removeUser } = await withOperator((s) => s.run('removeUser', { id: opts.user }));
      out.line(`Removed user ${removeUser.id} (${removeUser.email}) from account ${removeUser.accountId}`);
      out.result({ ok: true, userId: removeUser.id, removedAt: removeUser.removedAt });
    });
  return users;
}

export function keysCommand(): Command {
  const keys = new Command('keys').description('create, list and revoke API keys (operator)');
  keys
    .command('create')
    .description('create an API key for a user; the secret is printed once')
    .requiredOption('--user <id>', 'user id', uuidArg)
    .requiredOption('--name <name>', 'key name')
    .option(
      '--scope <scope>',
      `what the key may do, once per scope (${KEY_SCOPES.join(', ')}); none: every scope`,
      (scope: string, scopes: string[] = []) => [...scopes, scope],
    )
    .option('--expires <date-time>', 'refuse the key from this ISO 8601 date-time on (with Z or an offset)')
    .addOption(jsonOption())
    .action(async (opts: { user: string; name: string; scope?: string[]; expires?: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { createApiKey } = await withOperator((s) =>
        s.run('createApiKey', {
          userId: opts.user,
          name: opts.name,
          scopes: opts.scope ?? null,
          expiresAt: opts.expires ?? null,
        }),
      );
      const { key, secret } = createApiKey;
      out.line(`Created API key ${key.id} ("${key.name}") for user ${key.userId} in account ${key.accountId}`);
      out.line(`Scopes: ${key.scopes?.join(', ') ?? 'every scope'}; expires: ${key.expiresAt ?? 'never'}`);
      out.line(`Secret (shown once, store it now): ${secret}`);
      out.result({ ok: true, keyId: key.id, secret, key });
    });

  keys
    .command('list')
    .description("list an Account's API keys")
    .requiredOption('--account <id>', 'account id', uuidArg)
    .addOption(jsonOption())
    .action(async (opts: { account: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { apiKeys } = await withOperator((s) => s.run('listApiKeys', { accountId: opts.account }));
      if (apiKeys.length === 0) out.line('No API keys.');
      for (const k of apiKeys) {
        const state = k.revokedAt ? `revoked ${k.revokedAt}` : k.expiresAt ? `expires ${k.expiresAt}` : 'active';
        out.line(
          `${k.id}  ...${k.lastFour}  ${k.name}  user ${k.userId}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}  ${k.scopes?.join(',') ?? 'every scope'}  ${state}`,
        );
      }
      out.result({ ok: true, accountId: opts.account, keys: apiKeys });
    });

  keys
    .command('revoke')
    .description('revoke an API key')
    .argument('<id>', 'key id', uuidArg)
    .addOption(jsonOption())
    .action(async (id: string, opts: { json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { revokeApiKey } = await withOperator((s) => s.run('revokeApiKey', { id }));
      out.line(
        `Revoked API key ${revokeApiKey.id} ("${revokeApiKey.name}", ...${revokeApiKey.lastFour}) at ${revokeApiKey.revokedAt}`,
      );
      out.result({ ok: true, keyId: revokeApiKey.id, key: revokeApiKey });
    });
  return keys;
}

export function workflowsCommand(): Command {
  const workflows = new Command('workflows').description('create and manage workflows (operator)');
  workflows
    .command('create')
    .description('create a workflow in an Account')
    .requiredOption('--account <id>', 'account id', uuidArg)
    .requiredOption('--name <name>', 'workflow name')
    .addOption(new Option('--status <status>', 'initial status').choices(['published', 'draft']).default('draft'))
    .option('--agent <id>', 'the voice agent that calls its contacts', uuidArg)
    .addOption(jsonOption())
    .action(
      async (opts: {
        account: string;
        name: string;
        status: 'published' | 'draft';
        agent?: string;
        json?: boolean;
      }) => {
        const out = createOutput(!!opts.json);
        const { createWorkflow } = await withOperator((s) =>
          s.run('createWorkflow', {
            accountId: opts.account,
            name: opts.name,
            status: opts.status,
            agentId: opts.agent,
          }),
        );
        printWorkflow(out, 'Created', createWorkflow);
        out.result({ ok: true, workflowId: createWorkflow.id, workflow: createWorkflow });
      },
    );

  const changes: Array<
    [name: string, description: string, verb: string, change: { status?: 'published'; paused?: boolean }]
  > = [
    ['publish', 'publish a workflow (contacts can be assigned to it)', 'Published', { status: 'published' }],
    ['pause', 'pause a workflow', 'Paused', { paused: true }],
    ['resume', 'resume a paused workflow', 'Resumed', { paused: false }],
  ];
  for (const [name, description, verb, change] of changes) {
    workflows
      .command(name)
      .description(description)
      .argument('<id>', 'workflow id', uuidArg)
      .addOption(jsonOption())
      .action(async (id: string, opts: { json?: boolean }) => {
        const out = createOutput(!!opts.json);
        const { updateWorkflow } = await withOperator((s) => s.run('updateWorkflow', { id, ...change }));
        printWorkflow(out, verb, updateWorkflow);
        out.result({ ok: true, workflowId: updateWorkflow.id, workflow: updateWorkflow });
      });
  }
  return workflows;
}

export function blocklistCommand(): Command {
  const blocklist = new Command('blocklist').description("manage an Account's phone block list (operator)");
  blocklist
    .command('add')
    .description("block a phone number; the Account's contacts with it become dnc")
    .requiredOption('--account <id>', 'account id', uuidArg)
    .requiredOption('--phone <phone>', 'phone number, with its country code')
    .option('--reason <reason>', 'why it is blocked')
    .addOption(jsonOption())
    .action(async (opts: { account: string; phone: string; reason?: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { blockPhone } = await withOperator((s) =>
        s.run('blockPhone', { accountId: opts.account, phone: opts.phone, reason: opts.reason }),
      );
      out.line(
        `Blocked ${blockPhone.phone} in account ${blockPhone.accountId}${blockPhone.reason ? ` (${blockPhone.reason})` : ''}`,
      );
      out.result({ ok: true, accountId: blockPhone.accountId, phone: blockPhone.phone, blocked: blockPhone });
    });
  return blocklist;
}

export function intArg(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number.');
  return n;
}

function jsonArg(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('must be JSON, e.g. \'{"mon":[{"start":"09:00","end":"17:00"}]}\'.');
  }
}

function printAgent(out: ReturnType<typeof createOutput>, verb: string, a: AgentResult) {
  out.line(`${verb} agent ${a.id}`);
  out.line(`  name:          ${a.name} (${a.status})`);
  out.line(`  time zone:     ${a.timezone}, language ${a.defaultLanguage}`);
  out.line(
    `  attempts:      ${a.attemptLimit}, retry after ${a.retryDelayMinutes} min${a.callNewContactsImmediately ? ', new contacts called at once' : ''}`,
  );
  out.line(`  working hours: ${JSON.stringify(a.workingHours)}`);
  out.line(
    `  provider:      ${a.provider}${a.provider === 'simulator' ? '' : ` (agent ${a.providerAgentId}, calls from ${a.providerPhoneNumber})`}${a.maxConcurrentCalls ? `, at most ${a.maxConcurrentCalls} calls at once` : ''}`,
  );
}

/** Agent options shared by create and update; only the ones given are sent. */
function agentOptions(command: Command): Command {
  return command
    .addOption(new Option('--status <status>', 'live, paused or draft').choices(['live', 'paused', 'draft']))
    .option('--timezone <zone>', 'IANA time zone for calling hours (e.g. America/New_York)')
    .option('--language <locale>', 'default language (e.g. en-US)')
    .option('--attempt-limit <n>', 'call attempts per enrollment', intArg)
    .option('--retry-delay <minutes>', 'minutes between attempts', intArg)
    .option(
      '--working-hours <json>',
      'per weekday windows, e.g. \'{"mon":[{"start":"09:00","end":"17:00"}]}\'',
      jsonArg,
    )
    .option('--call-immediately', 'call new contacts at once, outside working hours')
    .option('--no-call-immediately', 'wait for working hours for new contacts too')
    .addOption(new Option('--provider <provider>', 'who runs the calls').choices(['simulator', 'vapi', 'retell']))
    .option('--provider-agent-id <id>', 'the Vapi assistant id or Retell agent id')
    .option('--provider-phone-number <number>', 'the Vapi phone number id or Retell from-number (E.164)')
    .option('--max-concurrent-calls <n>', "calls in flight at most (default: the provider's)", intArg)
    .addOption(jsonOption());
}

interface AgentOpts {
  status?: string;
  timezone?: string;
  language?: string;
  attemptLimit?: number;
  retryDelay?: number;
  workingHours?: unknown;
  callImmediately?: boolean;
  json?: boolean;
  provider?: string;
  providerAgentId?: string;
  providerPhoneNumber?: string;
  maxConcurrentCalls?: number;
}

function agentInput(opts: AgentOpts): Record<string, unknown> {
  const input: Record<string, unknown> = {
    status: opts.status,
    timezone: opts.timezone,
    defaultLanguage: opts.language,
    attemptLimit: opts.attemptLimit,
    retryDelayMinutes: opts.retryDelay,
    workingHours: opts.workingHours,
    callNewContactsImmediately: opts.callImmediately,
    provider: opts.provider,
    providerAgentId: opts.providerAgentId,
    providerPhoneNumber: opts.providerPhoneNumber,
    maxConcurrentCalls: opts.maxConcurrentCalls,
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

export function agentsCommand(): Command {
  const agents = new Command('agents').description('create and configure voice agents (operator)');
  agentOptions(
    agents
      .command('create')
      .description('create a voice agent in an Account')
      .requiredOption('--account <id>', 'account id', uuidArg)
      .requiredOption('--name <name>', 'agent name'),
  ).action(async (opts: AgentOpts & { account: string; name: string }) => {
    const out = createOutput(!!opts.json);
    const { createAgent } = await withOperator((s) =>
      s.run('createAgent', { input: { accountId: opts.account, name: opts.name, ...agentInput(opts) } }),
    );
    printAgent(out, 'Created', createAgent);
    out.result({ ok: true, agentId: createAgent.id, agent: createAgent });
  });
  agentOptions(
    agents
      .command('update')
      .description('change a voice agent')
      .argument('<id>', 'agent id', uuidArg)
      .option('--name <name>', 'agent name'),
  ).action(async (id: string, opts: AgentOpts & { name?: string }) => {
    const out = createOutput(!!opts.json);
    const input = { ...(opts.name ? { name: opts.name } : {}), ...agentInput(opts) };
    if (Object.keys(input).length === 0)
      throw usageError('agents update: give at least one option to change (see --help).');
    const { updateAgent } = await withOperator((s) => s.run('updateAgent', { id, input }));
    printAgent(out, 'Updated', updateAgent);
    out.result({ ok: true, agentId: updateAgent.id, agent: updateAgent });
  });
  return agents;
}
