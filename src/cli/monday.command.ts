// monday show / unlink: the operator's view of an Account's monday link (made by the board
// app's OAuth install), over the operator GraphQL operations run in-process (see operator.ts).
import { Command } from 'commander';
import { createOutput, jsonOption, type Output } from './output.js';
import { withOperator } from './operator.js';
import { uuidArg } from './operator.command.js';
import type { MondayLinkResult } from './operations.js';

function printLink(out: Output, link: MondayLinkResult) {
  out.line(`Account ${link.accountId} is linked to monday account ${link.mondayAccountId}`);
  out.line(`  monday user:  ${link.mondayUserId} (approved the install)`);
  out.line(`  acts as user: ${link.userId} (whose API key signed the install)`);
  out.line(`  linked:       ${link.createdAt}, updated ${link.updatedAt}`);
}

export function mondayCommand(): Command {
  const monday = new Command('monday').description("show and remove an Account's monday.com link (operator)");
  monday
    .command('show')
    .description('show the monday account linked to an Account')
    .requiredOption('--account <id>', 'account id', uuidArg)
    .addOption(jsonOption())
    .action(async (opts: { account: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { mondayLink } = await withOperator((s) => s.run('mondayLink', { accountId: opts.account }));
      if (mondayLink) printLink(out, mondayLink);
      else out.line(`Account ${opts.account} is not linked to monday.`);
      out.result({ ok: true, accountId: opts.account, link: mondayLink });
    });

  monday
    .command('unlink')
    .description('remove an Account\'s monday link; its "when a call ends" subscriptions stop (idempotent)')
    .requiredOption('--account <id>', 'account id', uuidArg)
    .addOption(jsonOption())
    .action(async (opts: { account: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { unlinkMonday } = await withOperator((s) => s.run('unlinkMonday', { accountId: opts.account }));
      const { removedLink, subscriptionsRemoved } = unlinkMonday;
      if (removedLink)
        out.line(
          `Unlinked account ${unlinkMonday.accountId} from monday account ${removedLink.mondayAccountId}; ${subscriptionsRemoved} trigger subscription(s) stopped.`,
        );
      else out.line(`Account ${unlinkMonday.accountId} was not linked to monday; nothing to do.`);
      out.result({
        ok: true,
        accountId: unlinkMonday.accountId,
        unlinked: removedLink !== null,
        removedLink,
        subscriptionsRemoved,
      });
    });
  return monday;
}
