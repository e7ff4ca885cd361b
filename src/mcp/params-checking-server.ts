// The SDK's Server, answering malformed request params as JSON-RPC says: -32602 (invalid
// params). The SDK parses each request against its method's schema before the handler runs and
// answers a failure as -32603 (internal error), which tells a client the server broke when its
// own message was wrong (`arguments: "x"`, a `name` that is an array, an object as
// `protocolVersion`). Every handler, the SDK's own (initialize, ping) included, is registered
// here with a schema that only matches the method, and its real schema is checked first.
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

interface RequestSchema {
  shape: { method: z.ZodType };
  safeParse(
    data: unknown,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

export class ParamsCheckingServer extends Server {
  // Called by the SDK's constructors too (before this class's fields exist: it uses none).
  override setRequestHandler(...[requestSchema, handler]: Parameters<Server['setRequestHandler']>): void {
    const strict = requestSchema as unknown as RequestSchema;
    const method = strict.shape.method;
    const matchesMethod = z.looseObject({ method });
    super.setRequestHandler(
      matchesMethod as never,
      ((request: unknown, extra: unknown) => {
        const parsed = strict.safeParse(request);
        if (!parsed.success)
          throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${describeIssues(parsed.error.issues)}`);
        return (handler as (request: unknown, extra: unknown) => unknown)(parsed.data, extra);
      }) as never,
    );
  }
}

/** `params.arguments: expected record, received string; …` (the first three). */
function describeIssues(issues: Array<{ path: PropertyKey[]; message: string }>): string {
  return issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
