// An answer sent before its request's body was read (a 401, 403, 404, 413 or 429 refusing the
// request from its headers) closes the connection. Node would otherwise read and discard the
// rest of the body to keep the connection alive, so an unauthenticated client could still make
// the server read megabytes it will never use; closing stops reading the moment the answer is
// out. A request whose body was read to its end keeps its connection.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { onBeforeHeaders } from './before-headers.js';

/** True while a request that announced a body has not been read to its end. */
export function bodyLeftUnread(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** For every request: answers that leave the body unread say `Connection: close` (Node then closes after them). */
export function closeConnectionsWithUnreadBodies(req: IncomingMessage, res: ServerResponse): void {
  onBeforeHeaders(res, () => closeIfBodyUnread(req, res));
}

export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  if (bodyLeftUnread(req)) res.setHeader('Connection', 'close');
}
