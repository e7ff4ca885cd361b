// The `contactline` CLI: serve, migrate, operator commands and CSV import. Commands load
// their heavy modules (Prisma, the GraphQL schema) only when they run, so help is instant.
import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import { CliError, EXIT, reportError } from './output.js';
import { migrateCommand, serveCommand } from './server.command.js';
import {
  accountsCommand,
  agentsCommand,
  blocklistCommand,
  keysCommand,
  usersCommand,
  workflowsCommand,
} from './operator.command.js';
import { callingPolicyCommand } from './calling-policy.command.js';
import { importCommand } from './import.command.js';
import { dncCommand } from './dnc.command.js';
import { mondayCommand } from './monday.command.js';
import { providersCommand } from './provider.command.js';

function version(): string {
  try {
    return (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

export function buildProgram(): Command {
  const program = new Command('contactline')
    .description('Contactline: contact import API (server, operator commands, CSV import)')
    .version(version(), '-V, --version')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });
  for (const command of [
    serveCommand(),
    migrateCommand(),
    accountsCommand(),
    usersCommand(),
    keysCommand(),
    agentsCommand(),
    workflowsCommand(),
    blocklistCommand(),
    callingPolicyCommand(),
    mondayCommand(),
    providersCommand(),
    importCommand(),
    dncCommand(),
  ]) {
    program.addCommand(command);
  }
  // Commands built with `new Command` do not inherit the program's settings: give every
  // command the same exit override (errors come back here) and output configuration.
  const inherit = (command: Command) => {
    for (const sub of command.commands) {
      sub.copyInheritedSettings(program);
      inherit(sub);
    }
  };
  inherit(program);
  return program;
}

/** Runs the CLI with process.argv-style arguments; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version exit 0; anything else (unknown command or option, missing or
      // invalid argument) already printed its message on stderr.
      if (error.exitCode === 0) return EXIT.ok;
      if (json)
        process.stdout.write(
          `${JSON.stringify({ ok: false, error: { code: 'usage', message: error.message.replace(/^error: /, '') } })}\n`,
        );
      return EXIT.usage;
    }
    if (error instanceof CliError) {
      reportError(error, json);
      return error.exitCode;
    }
    reportError(new CliError(`unexpected failure: ${(error as Error)?.stack ?? String(error)}`), json);
    return EXIT.failed;
  }
}
