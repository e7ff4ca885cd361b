// providers set / show / remove: an Account's Vapi or Retell credentials, over the operator
// GraphQL operations run in-process. Secrets go in (flags or environment variables, so they stay
// out of shell history when needed) and never come back: show prints the key's last four characters.
import { Command, Option } from 'commander';
import { createOutput, jsonOption, usageError } from './output.js';
import { withOperator } from './operator.js';
import { intArg, uuidArg } from './operator.command.js';
import type { ProviderCredentialResult } from './operations.js';

const providerOption = () =>
  new Option('--provider <provider>', 'vapi or retell').choices(['vapi', 'retell']).makeOptionMandatory();

function describe(c: ProviderCredentialResult): string {
  const cap = c.maxConcurrentCalls
    ? `at most ${c.maxConcurrentCalls} calls at once`
    : "the provider's default concurrency";
  return `${c.provider}: key …${c.apiKeyLastFour}, webhook secret ${c.webhookSecretSet ? 'set' : 'not set'}, ${cap}; updated ${c.updatedAt}`;
}

export function providersCommand(): Command {
  const providers = new Command('providers').description("store an Account's Vapi or Retell credentials (operator)");
  providers
    .command('set')
    .description("store or rotate an Account's key for a provider (encrypted at rest; never shown again)")
    .requiredOption('--account <id>', 'account id', uuidArg)
    .addOption(providerOption())
    .addOption(new Option('--api-key <key>', "the provider's private API key").env('PROVIDER_API_KEY'))
    .addOption(
      new Option(
        '--webhook-secret <secret>',
        "Vapi: the server URL credential's secret; Retell: the webhook key, when not the API key",
      ).env('PROVIDER_WEBHOOK_SECRET'),
    )
    .option('--max-concurrent-calls <n>', "calls in flight on this key at most (default: the provider's)", intArg)
    .addOption(jsonOption())
    .action(
      async (opts: {
        account: string;
        provider: string;
        apiKey?: string;
        webhookSecret?: string;
        maxConcurrentCalls?: number;
        json?: boolean;
      }) => {
        if (!opts.apiKey) throw usageError('providers set: give --api-key (or PROVIDER_API_KEY).');
        const out = createOutput(!!opts.json);
        const input = {
          accountId: opts.account,
          provider: opts.provider,
          apiKey: opts.apiKey,
          webhookSecret: opts.webhookSecret,
          maxConcurrentCalls: opts.maxConcurrentCalls,
        };
        const { setProviderCredentials } = await withOperator((s) => s.run('setProviderCredentials', { input }));
        out.line(`Stored for account ${opts.account}: ${describe(setProviderCredentials)}`);
        out.result({ ok: true, credentials: setProviderCredentials });
      },
    );
  providers
    .command('show')
    .description("show an Account's provider credentials (never the secrets)")
    .requiredOption('--account <id>', 'account id', uuidArg)
    .addOption(jsonOption())
    .action(async (opts: { account: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { providerCredentials } = await withOperator((s) =>
        s.run('providerCredentials', { accountId: opts.account }),
      );
      if (providerCredentials.length === 0)
        out.line(`Account ${opts.account} has no provider credentials; its agents can only run on the simulator.`);
      for (const c of providerCredentials) out.line(describe(c));
      out.result({ ok: true, accountId: opts.account, credentials: providerCredentials });
    });
  providers
    .command('remove')
    .description("forget an Account's key for a provider (its agents on that provider stop calling)")
    .requiredOption('--account <id>', 'account id', uuidArg)
    .addOption(providerOption())
    .addOption(jsonOption())
    .action(async (opts: { account: string; provider: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { removeProviderCredentials } = await withOperator((s) =>
        s.run('removeProviderCredentials', { accountId: opts.account, provider: opts.provider }),
      );
      out.line(
        removeProviderCredentials
          ? `Removed the ${opts.provider} key of account ${opts.account}.`
          : `Account ${opts.account} had no ${opts.provider} key; nothing to do.`,
      );
      out.result({ ok: true, removed: removeProviderCredentials });
    });
  return providers;
}
