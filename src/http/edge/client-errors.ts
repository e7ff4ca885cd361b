// Answers to requests Node's HTTP parser refuses before Express sees them (the server's
// 'clientError' event): a header section over Node's limit (--max-http-header-size, 16 KB by
// default) is a 431, a request line or header that is not HTTP a 400, a request too slow to
// arrive a 408, each with the API's error body (error-body.ts) and a fresh x-request-id, then the
// connection is closed (Node's own answers carry no body). A socket that is no longer
// writable, or already carries an answer, is only destroyed: nothing can be shaped there.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../domain/errors.js';
import { errorBody } from '../error-body.js';

function refusalOf(error: NodeJS.ErrnoException): DomainError {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return new DomainError(
      'request_header_fields_too_large',
      "The request's headers are over the server's limit (16 KB in all)",
    );
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new DomainError('request_timeout', 'The request did not arrive in time');
  return new DomainError('bad_request', 'The request is not valid HTTP');
}

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const answered = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || answered) {
    socket.destroy();
    return;
  }
  const refusal = refusalOf(error);
  const requestId = randomUUID();
  const body = JSON.stringify(errorBody(refusal, requestId));
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
