// A different real client: the MCP Inspector's CLI (@modelcontextprotocol/inspector-cli, built on
// its own client library) drives the tool server over Streamable HTTP with the bearer key as a
// header, as an assistant configured from docs/mcp.md would. It is inspector 1's CLI: inspector 2
// declares Node >= 22.19, and the project supports Node 20.19 too (its install must not warn).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server.js';
import { uniquePhone, upsertOk } from '../support/api-helpers.js';

const require = createRequire(import.meta.url);
const inspectorPackage = require.resolve('@modelcontextprotocol/inspector-cli/package.json');
// build/index.js is the CLI itself (the package's bin only launches it behind a banner). It finds
// its own package.json by a path relative to the working directory, so it runs from build/.
const inspectorDir = path.join(path.dirname(inspectorPackage), 'build');
const inspectorBin = path.join(inspectorDir, 'index.js');
// The SDK publishes the tools' schemas as JSON Schema draft-07.
const ajv = new Ajv({ strict: true, allowUnionTypes: true });
formats.default(ajv);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

describe('the MCP Inspector CLI against the tool server', () => {
  let server: TestServer;
  let account: TestAccount;
  let home: string;
  beforeAll(async () => {
    server = await startTestServer('pglite');
    account = await server.createAccount();
    // The inspector keeps a catalog and OAuth state under the home directory: a throw-away one.
    home = mkdtempSync(path.join(os.tmpdir(), 'contactline-inspector-'));
  });
  afterAll(async () => {
    await server?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  /** `mcp-inspector --cli <url>/api/mcp --transport http [--header Authorization: Bearer key] ...args`. */
  function inspector(apiKey: string | null, ...args: string[]): Promise<Run> {
    const argv = [
      inspectorBin,
      `${server.baseUrl}/api/mcp`,
      '--transport',
      'http',
      ...(apiKey ? ['--header', `Authorization: Bearer ${apiKey}`] : []),
      ...args,
    ];
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        argv,
        { cwd: inspectorDir, env: { ...process.env, HOME: home, USERPROFILE: home, NO_COLOR: '1' }, timeout: 60_000 },
        (error, stdout, stderr) => {
          let json: unknown;
          try {
            json = JSON.parse(stdout);
          } catch {
            json = undefined;
          }
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr, json });
        },
      );
    });
  }

  it('lists the read-only tools', async () => {
    const run = await inspector(account.apiKey, '--method', 'tools/list');
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      'bulk_update_get',
      'call_transcript_get',
      'contact_calls_list',
      'contact_consents_list',
      'contact_dialing_get',
      'contact_get',
      'contact_get_by_external_id',
      'contacts_search',
      'enrollment_job_get',
      'import_get',
      'imports_list',
      'webhook_deliveries_list',
      'webhook_endpoints_list',
      'workflow_enrollments_list',
      'workflow_results_get',
      'workflows_list',
    ]);
    for (const tool of run.json.tools) expect(tool.annotations.readOnlyHint, tool.name).toBe(true);
    // Every tool's input and output schema, as the client received it, is a valid JSON Schema
    // (strict mode: no unknown keywords, no ambiguous types).
    for (const tool of run.json.tools) {
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      if (tool.outputSchema) expect(() => ajv.compile(tool.outputSchema), tool.name).not.toThrow();
    }
  }, 90_000);

  it('calls tools with typed arguments and gets the REST data, structured and as text', async () => {
    const contact = await upsertOk(server, account.apiKey, {
      firstName: 'Katherine',
      lastName: 'Johnson',
      phone: uniquePhone(),
      sourceKind: 'hubspot',
      externalId: 'crm-kj',
    });
    const search = await inspector(
      account.apiKey,
      '--method',
      'tools/call',
      '--tool-name',
      'contacts_search',
      '--tool-arg',
      'searchTerm=kath joh',
      '--tool-arg',
      'limit=5',
    );
    expect(search.code, search.stderr).toBe(0);
    expect(search.json.isError).toBeFalsy();
    const viaRest = await server.request(account.apiKey, 'GET', '/api/v1/contacts?searchTerm=kath%20joh&limit=5');
    expect(search.json.structuredContent).toEqual(viaRest.json);
    expect(JSON.parse(search.json.content[0].text)).toEqual(viaRest.json);
    expect(search.json.structuredContent.data.map((c: { id: string }) => c.id)).toEqual([contact.id]);

    const calls = await inspector(
      account.apiKey,
      '--method',
      'tools/call',
      '--tool-name',
      'contact_calls_list',
      '--tool-arg',
      'sourceKind=hubspot',
      '--tool-arg',
      'externalId=crm-kj',
    );
    expect(calls.code, calls.stderr).toBe(0);
    expect(calls.json.structuredContent).toEqual({ data: [] });
  }, 90_000);

  it("sees a failing tool as an error result carrying the API's error body", async () => {
    const run = await inspector(
      account.apiKey,
      '--method',
      'tools/call',
      '--tool-name',
      'contact_get',
      '--tool-arg',
      'id=6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
    );
    // A tool's error result is a result, not a protocol failure: the CLI prints it and exits 0.
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.isError).toBe(true);
    expect(JSON.parse(run.json.content[0].text)).toMatchObject({
      code: 'not_found',
      error: 'Not Found',
      requestId: expect.any(String),
    });
  }, 90_000);

  it('cannot connect without the key', async () => {
    const run = await inspector(null, '--method', 'tools/list');
    // The 401 leads it to OAuth, which the tool server does not offer.
    expect(run.code).not.toBe(0);
    expect(run.json?.tools).toBeUndefined();
    expect(run.stderr).toMatch(/auth/i);
  }, 90_000);
});
