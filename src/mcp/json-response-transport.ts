// The SDK Server's transport for one HTTP POST: the request's JSON-RPC messages go in, and the
// answers to its requests come out, to be sent as one JSON body (Streamable HTTP with JSON
// responses, stateless: no session, no stream). mcp.route.ts applies the HTTP rules around it.
//
// Why not the SDK's WebStandardStreamableHTTPServerTransport: it speaks web Request and
// Response, so Express's request had to be rebuilt as one and the answer read back out of
// another, and it re-validates every message it sends. That cost about 0.15 ms of a tool
// call's ~0.45 ms overhead over the REST request (`npm run bench`, whose target for a tool call
// is at most 1.5× the REST request's p50), for streams, sessions and resumability a stateless
// JSON server never uses. The protocol (the JSON-RPC exchange, initialize, capabilities, tool
// dispatch) stays the SDK's Server.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCResultResponse,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

type JSONRPCAnswer = JSONRPCResultResponse | JSONRPCErrorResponse;

export class JsonResponseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  #awaited: RequestId[] = [];
  readonly #answers = new Map<RequestId, JSONRPCAnswer>();
  #settle?: () => void;
  #closed = false;

  async start(): Promise<void> {}

  /** Ends the exchange: the Server aborts its running handlers, and exchange() settles with the answers it has. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#settle?.();
    this.onclose?.();
  }

  /** The Server's answers. It sends nothing else here: it makes no requests of the client and no notifications. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('result' in message || 'error' in message) || message.id === undefined) return;
    this.#answers.set(message.id, message);
    if (this.#awaited.every((id) => this.#answers.has(id))) this.#settle?.();
  }

  /**
   * Hands one POST's messages to the Server. Resolves with the answers to its requests, in
   * their order, once all are in (none when it holds only notifications). One use per transport.
   */
  exchange(messages: JSONRPCMessage[]): Promise<JSONRPCAnswer[]> {
    if (this.#settle) throw new Error('A stateless transport serves one HTTP request');
    this.#awaited = messages.filter(isJSONRPCRequest).map((message) => message.id);
    const settled = new Promise<void>((resolve) => {
      this.#settle = resolve;
      if (this.#awaited.length === 0) resolve();
    });
    for (const message of messages) this.onmessage?.(message);
    return settled.then(() => this.#awaited.flatMap((id) => this.#answers.get(id) ?? []));
  }
}
