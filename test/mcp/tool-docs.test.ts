// docs/mcp.md lists the tool server's tools: the table under "## Tools" must name exactly the
// tools a client gets from tools/list, each with exactly its arguments. The README once said
// "the nine tools" while the server listed eleven; this is what notices the next one.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { connect, type Connected } from './mcp-helpers.js';

const GUIDE = path.resolve(import.meta.dirname, '../../docs/mcp.md');

/** The guide's tool table: each row's tool name and the arguments its second column names. */
function documentedTools(markdown: string): Map<string, string[]> {
  const section = /^## Tools\n([\s\S]*?)(?=^## )/m.exec(markdown);
  if (!section) throw new Error('docs/mcp.md has no "## Tools" section');
  const tools = new Map<string, string[]>();
  for (const line of section[1].split('\n')) {
    const row = /^\| `([a-z_]+)` \| ([^|]*) \|/.exec(line);
    if (!row) continue;
    expect(tools.has(row[1]), `${row[1]} is listed twice`).toBe(false);
    tools.set(row[1], [...row[2].matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]).sort());
  }
  return tools;
}

describe('docs/mcp.md', () => {
  let server: TestServer;
  let mcp: Connected;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    const account = await server.createAccount();
    mcp = await connect(server, account.apiKey);
  });

  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  it('lists every tool the server lists, with its arguments, and no other', async () => {
    const { tools } = await mcp.client.listTools();
    const listed = new Map(tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {}).sort()]));
    const documented = documentedTools(fs.readFileSync(GUIDE, 'utf8'));
    expect([...documented.keys()].sort()).toEqual([...listed.keys()].sort());
    for (const [name, args] of listed) expect(documented.get(name), `arguments of ${name}`).toEqual(args);
  });

  it('neither the guide nor the README states a count of tools that could go stale', () => {
    for (const file of [GUIDE, path.resolve(import.meta.dirname, '../../README.md')])
      expect(fs.readFileSync(file, 'utf8'), file).not.toMatch(
        /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+) (?:read-only )?tools\b/i,
      );
  });
});
