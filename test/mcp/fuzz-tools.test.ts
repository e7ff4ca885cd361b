// Property-based fuzzing of the tool server through the official MCP client (fast-check): every
// argument of every tool, read from the tool's advertised input schema, gets generated hostile
// values (NUL, lone surrogates, huge strings, deep JSON, wrong types). Each call answers a
// result or a tool error whose body is the API's error body, never `internal`, and never a JSON-RPC
// internal error (-32603). The tools only read, so nothing can be stored.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { testDatabaseKinds } from '../support/databases.js';
import { uniquePhone } from '../support/api-helpers.js';
import { fuzzOptions, hostileValue, materialize } from '../support/hostile-values.js';
import { connect, type Connected } from './mcp-helpers.js';

describe.each(testDatabaseKinds())('tool server fuzz on %s', (kind) => {
  let server: TestServer;
  let account: TestAccount;
  let mcp: Connected;
  let tools: Array<{ name: string; arguments: string[] }>;
  beforeAll(async () => {
    server = await startTestServer(kind);
    account = await server.createAccount();
    await server.request(account.apiKey, 'PUT', '/api/v1/contacts/upsert', {
      phone: uniquePhone(),
      externalId: 'fuzz-1',
      firstName: 'Fuzz',
    });
    mcp = await connect(server, account.apiKey);
    const listed = await mcp.client.listTools();
    tools = listed.tools.map((tool) => ({
      name: tool.name,
      arguments: Object.keys(tool.inputSchema.properties ?? {}),
    }));
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  /** Arguments that make a call reach its operation: the seeded contact's source and external ID. */
  const baseArguments: Record<string, unknown> = { sourceKind: 'api', externalId: 'fuzz-1' };

  async function expectHandled(name: string, args: Record<string, unknown>): Promise<void> {
    let result: CallToolResult;
    try {
      result = (await mcp.client.callTool({
        name,
        arguments: materialize(args) as Record<string, unknown>,
      })) as CallToolResult;
    } catch (error) {
      // A protocol error is acceptable only as a client error, never the server's internal one.
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code, String(error)).not.toBe(-32603);
      return;
    }
    if (result.isError) {
      const body = JSON.parse((result.content[0] as { text: string }).text);
      expect(body).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
        requestId: expect.any(String),
      });
      expect(body.code, body.message).not.toBe('internal');
    }
  }

  it('every argument of every tool', async () => {
    expect(tools.length).toBe(16);
    for (const tool of tools) {
      for (const argument of tool.arguments) {
        await fc.assert(
          fc.asyncProperty(hostileValue, async (value) => {
            await expectHandled(tool.name, { ...baseArguments, [argument]: value });
          }),
          fuzzOptions(12),
        );
      }
    }
  });

  it('unknown arguments and unknown tool names', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...tools.map((t) => t.name)),
        fc.dictionary(fc.string(), hostileValue, { maxKeys: 3 }),
        async (name, extra) => {
          await expectHandled(name, { ...baseArguments, ...extra });
        },
      ),
      fuzzOptions(20),
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 30 }), async (name) => {
        await expectHandled(name, {});
      }),
      fuzzOptions(20),
    );
  });
});
