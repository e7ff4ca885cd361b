// The MCP server of one request: the tools, run as the request's key. Built per request
// (the tool server is stateless), apart from the HTTP transport (mcp.route.ts).
//
// Why the SDK's low-level Server and not McpServer: McpServer validates arguments against the
// advertised input schema and answers a failure with its own text. A bad argument must get
// the REST 400 (the domain's error body, with code and requestId), so the advertised
// schemas describe the arguments and the domain operation validates them, as for REST.
import { createRequire } from 'node:module';
import { z } from 'zod';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../domain/context.js';
import { errorBody, failureOf, type LogError } from '../http/error-body.js';
import { TOOLS, type ToolDefinition } from './tools.js';
import { ParamsCheckingServer } from './params-checking-server.js';

const SERVER_NAME = 'contactline';
const SERVER_VERSION: string = createRequire(import.meta.url)('../../package.json').version;

const INSTRUCTIONS = [
  "Read-only access to one Account's contacts, their calls and call transcripts, its workflows, and its bulk imports and bulk-updates.",
  "Find contacts with contacts_search (or contact_get / contact_get_by_external_id); list a contact's calls with contact_calls_list",
  "(it takes the contact's sourceKind and externalId); read a call's transcript with call_transcript_get (it takes the call's id).",
  'Tell whether and when a contact will be called, and every rule that blocks it, with contact_dialing_get; list its consents with contact_consents_list',
  "(both take the contact's id, or its sourceKind and externalId).",
  'Read what a bulk import or bulk-update did with import_get (or imports_list) and bulk_update_get.',
  'List tools return one page; pass the returned nextToken to get the next one.',
  'A failed call returns an error result whose text is JSON { error, message, code, requestId }: code bad_request means an argument',
  'is wrong (the message names it), not_found that nothing with that id exists in the Account, conflict that several contacts share',
  'an external ID (they are listed in contacts; read one by its id).',
].join(' ');

/** Every tool only reads the Account's own data: same arguments, same answer, no side effects. */
const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const jsonSchema = (schema: z.ZodObject, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'draft-7', io }) as Tool['inputSchema'];

/** The tools/list answer, computed once. */
const TOOL_LIST: Tool[] = TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: jsonSchema(tool.input, 'input'),
  outputSchema: jsonSchema(tool.output, 'output'),
  annotations: { title: tool.title, ...READ_ONLY },
}));

const TOOLS_BY_NAME = new Map<string, ToolDefinition>(TOOLS.map((tool) => [tool.name, tool]));

// The server only validates JSON Schemas for elicitation, which it never asks for; one shared
// validator spares building an Ajv instance on every request.
const jsonSchemaValidator = new AjvJsonSchemaValidator();

export interface McpServerOptions {
  /** Called with the cause of an `internal` failure (the client sees only the error body). */
  logError?: LogError;
}

/** An MCP server whose tools act as the request context's key. */
export function createMcpServer(ctx: RequestContext, { logError }: McpServerOptions = {}): Server {
  // Malformed params are -32602, not the SDK's -32603 (params-checking-server.ts).
  const server = new ParamsCheckingServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'Contactline' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${request.params.name}; the tools are ${TOOLS.map((t) => t.name).join(', ')}`,
      );
    return callTool(ctx, tool, request.params.arguments ?? {}, logError);
  });
  return server;
}

/** Runs one tool: its REST body as structured content and as JSON text, or a tool error whose text is the error body. */
async function callTool(
  ctx: RequestContext,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  logError?: LogError,
): Promise<CallToolResult> {
  try {
    const body = await tool.run(ctx, args);
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  } catch (error) {
    return toolError(error, ctx.requestId, logError);
  }
}

/**
 * The MCP mapping of a failure inside a tool: a tool error result whose text is the REST error
 * body (the `tool_error` form of the failure table, src/domain/errors.ts; the codes of the other
 * forms are refused by the endpoint before any tool runs, mcp.route.ts).
 */
export function toolError(error: unknown, requestId: string, logError?: LogError): CallToolResult {
  const mapped = failureOf(error, requestId, logError);
  return { content: [{ type: 'text', text: JSON.stringify(errorBody(mapped, requestId)) }], isError: true };
}
