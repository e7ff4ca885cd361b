// How an answer is written with Node's own response, for the routes the front door serves
// without Express and for the app's one error mapper: the same bytes and headers Express's
// res.json and res.send write (Content-Type with its charset, Content-Length; no ETag, as the
// app sets). A HEAD answer gets the headers alone: Node drops the body of an answer to a HEAD.
import type { ServerResponse } from 'node:http';
import { asDomainError, type DomainError } from '../domain/errors.js';
import { errorBody, failureOf, type LogError } from './error-body.js';
import type { EdgeResponse } from './edge-response.js';

export function sendBody(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendBody(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

/**
 * Any failure as the API's error body: a DomainError (or what `known` makes of the error) with
 * its status, anything else a logged 500 `internal`. Once an answer has begun, the connection is
 * cut instead: a half-sent body cannot become an error.
 */
export function sendError(
  res: EdgeResponse,
  error: unknown,
  logError: LogError,
  known: DomainError | undefined = asDomainError(error),
): void {
  const requestId = res.locals.requestId as string;
  const mapped = failureOf(error, requestId, logError, known);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, mapped.status, errorBody(mapped, requestId));
}
