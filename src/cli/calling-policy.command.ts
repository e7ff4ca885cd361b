// calling-policy get / set: an Account's calling policy (the purpose of its calls, written consent
// before any call, its own attempt cap, the jurisdictions whose rules it turned off) and its
// history, over the operator GraphQL operations run in-process (see operator.ts). The domain
// checks every value; a change is recorded with `operator` as who made it.
import { Command, InvalidArgumentError, Option } from 'commander';
import { createOutput, jsonOption, type Output, usageError } from './output.js';
import { withOperator } from './operator.js';
import { uuidArg } from './operator.command.js';
import type { CallingPolicyResult } from './operations.js';

/** How many of the policy's changes `get` prints, newest first. */
const CHANGES_SHOWN = 20;

type AttemptCap = { max: number; periodHours: number } | null;

/**
 * `3/24h` (at most 3 calls in any 24 hours) or `none` (kept as 'none': commander turns a parser's
 * null into '').
 */
export function attemptCapArg(value: string): Exclude<AttemptCap, null> | 'none' {
  if (value.trim().toLowerCase() === 'none') return 'none';
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*h\s*$/i.exec(value);
  if (!match)
    throw new InvalidArgumentError('must be <calls>/<hours>h, e.g. 3/24h (at most 3 calls in any 24 hours), or none.');
  return { max: Number(match[1]), periodHours: Number(match[2]) };
}

/** Jurisdiction codes, repeated or comma-separated, upper-cased (`us-fl` is US-FL). */
function jurisdictionsArg(value: string, previous: string[] = []): string[] {
  const codes = value
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter(Boolean);
  if (codes.length === 0) throw new InvalidArgumentError('give a jurisdiction code, e.g. US-FL.');
  return [...previous, ...codes];
}

const capWords = (cap: AttemptCap) => (cap ? `${cap.max} calls in any ${cap.periodHours} hours` : 'none');

function printPolicy(out: Output, accountId: string, p: CallingPolicyResult) {
  out.line(`Calling policy of account ${accountId} (rule set ${p.ruleSetVersion})`);
  out.line(`  purpose:                 ${p.purpose}`);
  out.line(`  written consent for all: ${p.requireWrittenConsent ? 'yes' : 'no'}`);
  out.line(`  own attempt cap:         ${capWords(p.attemptCap ?? null)}`);
  out.line(
    `  jurisdictions off:       ${
      p.disabledJurisdictions.length === 0
        ? 'none'
        : p.disabledJurisdictions
            .map((d) => `${d.jurisdiction} (since ${d.disabledAt as string}, by ${d.disabledBy})`)
            .join(', ')
    }`,
  );
  out.line(
    `  last changed:            ${p.updatedAt ? `${p.updatedAt as string} by ${p.updatedBy}` : 'never (the defaults: every rule on)'}`,
  );
}

export function callingPolicyCommand(): Command {
  const policy = new Command('calling-policy').description(
    "show and change an Account's calling policy: purpose, written consent, its own attempt cap, jurisdictions turned off (operator)",
  );
  policy
    .command('get')
    .description("show an Account's calling policy and its latest changes (who, when, what)")
    .requiredOption('--account <id>', 'account id', uuidArg)
    .addOption(jsonOption())
    .action(async (opts: { account: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { callingPolicy, callingPolicyChanges } = await withOperator((s) =>
        s.run('callingPolicy', { accountId: opts.account, limit: CHANGES_SHOWN }),
      );
      printPolicy(out, opts.account, callingPolicy);
      out.line(callingPolicyChanges.length === 0 ? '  changes:                 none' : '  changes (newest first):');
      for (const change of callingPolicyChanges) {
        const fields = Object.entries((change.change ?? {}) as Record<string, { from?: unknown; to?: unknown }>);
        const what = fields.map(([field, d]) => `${field} ${JSON.stringify(d.from)} → ${JSON.stringify(d.to)}`);
        out.line(`    ${change.at as string}  ${change.actor}  ${what.join('; ')}`);
      }
      out.result({ ok: true, accountId: opts.account, policy: callingPolicy, changes: callingPolicyChanges });
    });

  policy
    .command('set')
    .description(
      "change an Account's calling policy; options left out keep their value. Turning a jurisdiction's rules off is the Account's responsibility",
    )
    .requiredOption('--account <id>', 'account id', uuidArg)
    .addOption(new Option('--purpose <purpose>', 'why the Account calls').choices(['telemarketing', 'informational']))
    .addOption(
      new Option(
        '--require-written-consent <bool>',
        'true: no contact is called without prior express written consent',
      ).choices(['true', 'false']),
    )
    .option(
      '--attempt-cap <cap>',
      "the Account's own cap: <calls>/<hours>h (3/24h), or none; the law's caps apply anyway",
      attemptCapArg,
    )
    .option(
      '--disable-jurisdiction <code>',
      "turn a jurisdiction's rules off (repeat it, or comma-separate: US-FL,US-TX); a country turns its regions off too",
      jurisdictionsArg,
    )
    .option(
      '--enable-jurisdiction <code>',
      "turn a jurisdiction's rules back on (repeat it, or comma-separate)",
      jurisdictionsArg,
    )
    .addOption(jsonOption())
    .action(
      async (opts: {
        account: string;
        purpose?: string;
        requireWrittenConsent?: 'true' | 'false';
        attemptCap?: ReturnType<typeof attemptCapArg>;
        disableJurisdiction?: string[];
        enableJurisdiction?: string[];
        json?: boolean;
      }) => {
        const out = createOutput(!!opts.json);
        const disable = opts.disableJurisdiction ?? [];
        const enable = opts.enableJurisdiction ?? [];
        const both = disable.filter((code) => enable.includes(code));
        if (both.length > 0)
          throw usageError(`calling-policy set: ${both.join(', ')} is both disabled and enabled; give it once.`);
        const input: Record<string, unknown> = {};
        if (opts.purpose !== undefined) input.purpose = opts.purpose;
        if (opts.requireWrittenConsent !== undefined)
          input.requireWrittenConsent = opts.requireWrittenConsent === 'true';
        if (opts.attemptCap !== undefined) input.attemptCap = opts.attemptCap === 'none' ? null : opts.attemptCap;
        if (Object.keys(input).length === 0 && disable.length === 0 && enable.length === 0)
          throw usageError('calling-policy set: give at least one option to change (see --help).');
        const { setCallingPolicy } = await withOperator(async (s) => {
          if (disable.length > 0 || enable.length > 0) {
            // The policy stores the whole list: the current one, with these turned off and on.
            const { callingPolicy } = await s.run('callingPolicy', { accountId: opts.account, limit: 1 });
            const current = callingPolicy.disabledJurisdictions.map((d) => d.jurisdiction);
            input.disabledJurisdictions = [...new Set([...current, ...disable])].filter(
              (code) => !enable.includes(code),
            );
          }
          return s.run('setCallingPolicy', { accountId: opts.account, input });
        });
        printPolicy(out, opts.account, setCallingPolicy);
        if (disable.length > 0)
          out.note(
            `note: the dialer no longer applies the rules of ${disable.join(', ')} to account ${opts.account}'s calls; whether those calls are lawful is the Account's responsibility.`,
          );
        out.result({ ok: true, accountId: opts.account, policy: setCallingPolicy });
      },
    );
  return policy;
}
