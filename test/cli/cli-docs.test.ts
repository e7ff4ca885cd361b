// docs/cli.md lists every command of the `contactline` CLI with its options: its "## Commands"
// table must have a row for each command commander knows (src/cli/main.ts builds them), and each
// row must name every option of its command. The README's list once left out agents, users
// invite, providers and monday; this is what notices the next command added.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';

const GUIDE = path.resolve(import.meta.dirname, '../../docs/cli.md');

/** Every command that runs something (not a group such as `accounts`), by its full name. */
function leafCommands(command: Command, prefix: string[] = []): Array<{ name: string; command: Command }> {
  return command.commands.flatMap((sub) => {
    const name = [...prefix, sub.name()];
    return sub.commands.length === 0 ? [{ name: name.join(' '), command: sub }] : leafCommands(sub, name);
  });
}

/** The guide's command table: the command's name (its lower-case words) → the rest of its row. */
function documentedCommands(markdown: string): Map<string, string> {
  const section = /^## Commands\n([\s\S]*?)(?=^## )/m.exec(markdown);
  if (!section) throw new Error('docs/cli.md has no "## Commands" section');
  const rows = new Map<string, string>();
  for (const line of section[1].split('\n')) {
    const row = /^\| `([^`]+)` \|(.*)$/.exec(line);
    if (!row) continue;
    const name = row[1]
      .split(' ')
      .filter((word) => /^[a-z][a-z-]*$/.test(word))
      .join(' ');
    expect(rows.has(name), `${name} is listed twice`).toBe(false);
    rows.set(name, row[2]);
  }
  return rows;
}

describe('docs/cli.md', () => {
  const documented = documentedCommands(fs.readFileSync(GUIDE, 'utf8'));
  const commands = leafCommands(buildProgram());

  it('has a row for every command of the CLI, and none for a command it does not have', () => {
    expect(commands.length).toBeGreaterThan(20);
    expect([...documented.keys()].sort()).toEqual(commands.map((c) => c.name).sort());
  });

  it("names every option of each command in the command's row", () => {
    for (const { name, command } of commands) {
      const row = documented.get(name) ?? '';
      for (const option of command.options) {
        if (option.long === '--json') continue; // every command's, said once above the table
        // `--provider` must be there itself, not only inside `--provider-agent-id`.
        expect(row, `${name} ${option.long}`).toMatch(new RegExp(`${option.long}(?![a-z-])`));
      }
    }
  });
});
