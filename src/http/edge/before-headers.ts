// Runs code at the last moment before an answer's status line and headers are written, whoever
// writes them (a route, the error mapper, yoga, the MCP transport, Express's own 404). The edge
// uses it for headers that depend on the whole request (the rate-limit fields, closing a
// connection whose body was never read), so no route has to remember them. Node writes the
// head through res.writeHead, also when a body is sent without an explicit one.
import type { ServerResponse } from 'node:http';

const LISTENERS = Symbol('beforeHeaders');

type Patched = ServerResponse & { [LISTENERS]?: Array<() => void> };

/** Calls `listener` once, just before `res` writes its head (in the order added). */
export function onBeforeHeaders(res: ServerResponse, listener: () => void): void {
  const patched = res as Patched;
  if (patched[LISTENERS]) {
    patched[LISTENERS].push(listener);
    return;
  }
  const listeners = [listener];
  patched[LISTENERS] = listeners;
  const writeHead = res.writeHead;
  res.writeHead = function patchedWriteHead(this: ServerResponse, ...args: unknown[]) {
    res.writeHead = writeHead;
    // A status passed to writeHead is the answer's: listeners read res.statusCode.
    if (typeof args[0] === 'number') this.statusCode = args[0];
    for (const run of listeners) run();
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}
