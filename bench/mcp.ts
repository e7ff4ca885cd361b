// Tool server figures (called from bench/run.ts after the contact figures, on the same seeded
// account): each tool call (one POST /api/mcp carrying tools/call: stateless, so no session and
// no initialize before it, with the headers the SDK's client sends) against the REST request
// it stands for, on the same data, alternating, in the same run. Target: the tool
// call's p50 at most 1.5× the REST request's. Before timing, each pair is checked to return
// the same data (the tool's structuredContent equals the REST body).
//
//   mcp-contacts-search      contacts_search { searchTerm, limit: 50 }  vs GET /api/v1/contacts?searchTerm=…&limit=50
//   mcp-contact-get          contact_get { id }                         vs GET /api/v1/contacts/{id}
//   mcp-contact-external-id  contact_get_by_external_id                 vs GET /api/v1/contacts/source/{kind}/external-id/{id}
//   mcp-contact-calls        contact_calls_list (20 calls)              vs GET …/external-id/{id}/calls
//   mcp-call-transcript      call_transcript_get (40 utterances)        vs GET /api/v1/calls/{id}/transcript
//   mcp-workflows            workflows_list                             vs GET /api/v1/workflows
//   BENCH_ONLY=mcp                seed, then only these figures
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATH } from '../src/mcp/mcp.route.js';
import type { TestServer } from '../test/support/test-server.js';
import { figure, timed, type Figure } from './run.js';

export interface McpSettings {
  /** Timed requests per figure, each side. */
  requests: number;
  warmup: number;
}

/** The tool server's target: a tool call costs at most this many times its REST request (p50). */
const MCP_TARGET_RATIO = 1.5;

interface Case {
  id: string;
  name: string;
  tool: string;
  /** Tool arguments and the equivalent REST path, for the i-th request. */
  request(i: number): { args: Record<string, unknown>; path: string };
}

export async function benchMcp(
  server: TestServer,
  account: { accountId: string; apiKey: string },
  settings: McpSettings,
  log: (message: string) => void,
): Promise<Figure[]> {
  const prisma = server.service.services.db.prisma;
  const headers = { authorization: `Bearer ${account.apiKey}` };
  let rpcId = 0;

  const rest = async (path: string): Promise<unknown> => {
    const response = await fetch(server.baseUrl + path, { headers });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path}: HTTP ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  const tool = async (name: string, args: Record<string, unknown>): Promise<unknown> => {
    const response = await fetch(server.baseUrl + MCP_PATH, {
      method: 'POST',
      headers: {
        ...headers,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } }),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`tools/call ${name}: HTTP ${response.status}: ${text.slice(0, 300)}`);
    const message = JSON.parse(text) as {
      result?: { isError?: boolean; structuredContent?: unknown; content?: unknown };
    };
    if (!message.result || message.result.isError) throw new Error(`tools/call ${name} failed: ${text.slice(0, 300)}`);
    return message.result.structuredContent;
  };

  // --- data: contacts from the seed, one contact with calls and a transcript, a few workflows ---
  log('   tool server data (a contact with 20 calls and a 40-utterance transcript, 5 workflows)…');
  const seeded = (await rest('/api/v1/contacts?limit=50')) as { data: Array<{ id: string }> };
  const ids = seeded.data.map((c) => c.id);
  const phone = `+1415${String(9_000_000 + Math.floor(Math.random() * 999_999))}`;
  const created = await fetch(`${server.baseUrl}/api/v1/contacts/upsert`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Bench',
      lastName: 'Caller',
      phone,
      sourceKind: 'hubspot',
      externalId: `bench-mcp-${randomUUID()}`,
    }),
  });
  const contact = (await created.json()) as { id: string; sourceKind: string; externalId: string };
  if (created.status !== 201) throw new Error(`upsert for the tool server figures: HTTP ${created.status}`);
  const t0 = Date.now() - 86_400_000;
  const callIds: string[] = [];
  for (let i = 0; i < 20; i++) {
    const id = randomUUID();
    callIds.push(id);
    await prisma.call.create({
      data: {
        id,
        accountId: account.accountId,
        contactId: contact.id,
        createdAt: new Date(t0 + i * 60_000),
        status: 'ended',
        result: i % 3 ? 'no_answer' : 'answered',
        endReason: 'customer-ended-call',
        startedAt: new Date(t0 + i * 60_000 + 5),
        endedAt: new Date(t0 + i * 60_000 + 45_000),
        durationSeconds: 45,
        language: 'en-US',
        lastCall: i === 19,
        reportReady: true,
      },
    });
  }
  await prisma.callUtterance.createMany({
    data: Array.from({ length: 40 }, (_, seq) => ({
      callId: callIds[0],
      seq,
      speaker: seq % 2 ? 'user' : 'assistant',
      content:
        seq % 2
          ? 'Sure, tell me more about the plan and the price.'
          : 'Hi, this is Ava calling about your subscription renewal.',
      timestamp: new Date(t0 + seq * 1000),
    })),
  });
  for (let i = 0; i < 5; i++)
    await prisma.workflow.create({
      data: {
        createdAt: server.now(),
        updatedAt: server.now(),
        accountId: account.accountId,
        name: `Bench workflow ${i}`,
        status: 'published',
      },
    });

  const terms = ['mar', 'jo smi', 'ann', 'chr', 'wil', 'dav', 'gar', 'rob', 'jen', 'ste'];
  const externalPath = `/api/v1/contacts/source/${contact.sourceKind}/external-id/${encodeURIComponent(contact.externalId)}`;
  const cases: Case[] = [
    {
      id: 'mcp-contacts-search',
      name: 'Tool contacts_search vs GET /contacts?searchTerm (name prefix, limit 50)',
      tool: 'contacts_search',
      request: (i) => ({
        args: { searchTerm: terms[i % terms.length], limit: 50 },
        path: `/api/v1/contacts?searchTerm=${encodeURIComponent(terms[i % terms.length])}&limit=50`,
      }),
    },
    {
      id: 'mcp-contact-get',
      name: 'Tool contact_get vs GET /contacts/{id}',
      tool: 'contact_get',
      request: (i) => ({ args: { id: ids[i % ids.length] }, path: `/api/v1/contacts/${ids[i % ids.length]}` }),
    },
    {
      id: 'mcp-contact-external-id',
      name: 'Tool contact_get_by_external_id vs GET /contacts/source/…/external-id/…',
      tool: 'contact_get_by_external_id',
      request: () => ({ args: { sourceKind: contact.sourceKind, externalId: contact.externalId }, path: externalPath }),
    },
    {
      id: 'mcp-contact-calls',
      name: 'Tool contact_calls_list vs GET …/external-id/…/calls (20 calls)',
      tool: 'contact_calls_list',
      request: () => ({
        args: { sourceKind: contact.sourceKind, externalId: contact.externalId },
        path: `${externalPath}/calls`,
      }),
    },
    {
      id: 'mcp-call-transcript',
      name: 'Tool call_transcript_get vs GET /calls/{id}/transcript (40 utterances)',
      tool: 'call_transcript_get',
      request: () => ({ args: { callId: callIds[0] }, path: `/api/v1/calls/${callIds[0]}/transcript` }),
    },
    {
      id: 'mcp-workflows',
      name: 'Tool workflows_list vs GET /workflows',
      tool: 'workflows_list',
      request: () => ({ args: {}, path: '/api/v1/workflows' }),
    },
  ];

  const figures: Figure[] = [];
  for (const c of cases) {
    // Same data: every distinct request of the case answers the same both ways.
    for (let i = 0; i < Math.min(settings.requests, 10); i++) {
      const { args, path } = c.request(i);
      const [viaTool, viaRest] = [await tool(c.tool, args), await rest(path)];
      if (!isDeepStrictEqual(viaTool, viaRest)) throw new Error(`${c.id}: the tool's result differs from GET ${path}`);
    }
    for (let i = 0; i < settings.warmup; i++) {
      const { args, path } = c.request(i);
      await tool(c.tool, args);
      await rest(path);
    }
    const viaTool: number[] = [];
    const viaRest: number[] = [];
    for (let i = 0; i < settings.requests; i++) {
      const { args, path } = c.request(i);
      // Alternate which goes first, so neither always runs on a warmer cache.
      const runTool = async () => viaTool.push((await timed(() => tool(c.tool, args)))[0]);
      const runRest = async () => viaRest.push((await timed(() => rest(path)))[0]);
      if (i % 2 === 0) {
        await runTool();
        await runRest();
      } else {
        await runRest();
        await runTool();
      }
    }
    figures.push(
      figure(viaTool, viaRest, {
        id: c.id,
        name: c.name,
        target: `≤ ${MCP_TARGET_RATIO}× REST (p50)`,
        pass: (_s, ratioP50) => ratioP50 !== null && ratioP50 <= MCP_TARGET_RATIO,
        notes: `"service" is the tool call (POST /api/mcp tools/call, JSON response), "raw" the REST request for the same data; ${settings.requests} of each, alternating`,
      }),
    );
  }
  return figures;
}
