// A raw HTTP/1.1 exchange over a socket, to see what the server does with a body it was sent:
// the client sends the head and a little of a large declared body, reads the answer, then keeps
// sending the rest until the server closes the connection. How many bytes the server's own
// socket read tells whether it read (or drained) the body.
import net from 'node:net';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawExchange {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes the server's socket read from the client, head included. */
  serverBytesRead: number;
  /** Bytes of body the client sent in all. */
  bodyBytesSent: number;
  headBytes: number;
}

/**
 * Sends `method path` with `headers`, declaring `declaredLength` body bytes; sends
 * `before` of them, waits for the answer, then offers the rest in 64 KB chunks.
 */
export async function exchangeWithLargeBody(
  server: Server,
  method: string,
  path: string,
  headers: Record<string, string>,
  declaredLength: number,
  before = 64 * 1024,
): Promise<RawExchange> {
  const { port } = server.address() as AddressInfo;
  const client = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => client.once('connect', resolve).once('error', reject));
  // The server's side of this connection, found by the client's port.
  const serverSocket = await new Promise<net.Socket>((resolve) => {
    const find = () => {
      const socket = findSocket(server, client.localPort!);
      if (socket) resolve(socket);
      else setTimeout(find, 5);
    };
    find();
  });

  const head = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${declaredLength}\r\n${Object.entries(
    headers,
  )
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  let received = Buffer.alloc(0);
  let closed = false;
  client.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  client.on('error', () => (closed = true));
  client.on('close', () => (closed = true));

  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  const send = async (upTo: number) => {
    while (!closed && sent < upTo) {
      const piece = chunk.subarray(0, Math.min(chunk.length, upTo - sent));
      sent += piece.length;
      if (!client.write(piece))
        await new Promise<void>((resolve) => {
          client.once('drain', resolve);
          client.once('close', resolve);
        });
    }
  };
  client.write(head);
  await send(Math.min(before, declaredLength));
  // The answer's head and its Content-Length body.
  const answer = await new Promise<{ status: number; headers: Record<string, string>; body: string }>(
    (resolve, reject) => {
      const tryParse = () => {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return false;
        const lines = received.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(lines[0].split(' ')[1]);
        const parsed = Object.fromEntries(
          lines
            .slice(1)
            .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
        );
        const length = Number(parsed['content-length'] ?? 0);
        if (received.length < end + 4 + length) return false;
        resolve({ status, headers: parsed, body: received.subarray(end + 4, end + 4 + length).toString('utf8') });
        return true;
      };
      const onData = () => {
        if (tryParse()) client.off('data', onData);
      };
      client.on('data', onData);
      client.once('close', () => {
        if (!tryParse())
          reject(new Error(`connection closed without an answer: ${received.toString('latin1').slice(0, 200)}`));
      });
      onData();
    },
  );
  // Offer the rest: a server that drains the body reads it all; one that closed reads none of it.
  await send(declaredLength);
  if (!closed)
    await new Promise<void>((resolve) => {
      client.once('close', resolve);
      client.end();
    });
  await new Promise<void>((resolve) =>
    serverSocket.destroyed ? resolve() : serverSocket.once('close', () => resolve()),
  );
  return {
    ...answer,
    serverBytesRead: serverSocket.bytesRead,
    bodyBytesSent: sent,
    headBytes: Buffer.byteLength(head),
  };
}

/** The server's socket whose remote port is `port` (Node keeps no public list: watch 'connection'). */
function findSocket(server: Server, port: number): net.Socket | undefined {
  return trackedSockets.get(server)?.find((socket) => socket.remotePort === port);
}

const trackedSockets = new WeakMap<Server, net.Socket[]>();

/** Starts remembering the server's connections (call once, before exchanges). */
export function trackConnections(server: Server): void {
  if (trackedSockets.has(server)) return;
  const sockets: net.Socket[] = [];
  trackedSockets.set(server, sockets);
  server.on('connection', (socket: net.Socket) => {
    sockets.push(socket);
    socket.once('close', () => sockets.splice(sockets.indexOf(socket), 1));
  });
}

export interface RawAnswer {
  /** The answer's status; null when the server closed the connection without one. */
  status: number | null;
  body: string;
}

/**
 * Sends `bytes` as they are (a request head and whatever body, however its Content-Length
 * disagrees with it) on a new connection, then half-closes it when `end`. Resolves with the
 * first answer (its head and Content-Length body) once it is in, or with status null when the
 * server closed the connection first; the connection is closed either way.
 */
export async function sendRaw(server: Server, bytes: string, { end = false } = {}): Promise<RawAnswer> {
  const { port } = server.address() as AddressInfo;
  const client = net.connect(port, '127.0.0.1');
  let received = Buffer.alloc(0);
  const answer = await new Promise<RawAnswer>((resolve) => {
    const complete = () => {
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return undefined;
      const head = received.subarray(0, headEnd).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < headEnd + 4 + length) return undefined;
      return {
        status: Number(head.split(' ')[1]),
        body: received.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8'),
      };
    };
    client.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const done = complete();
      if (done) resolve(done);
    });
    client.on('error', () => {});
    client.once('close', () => resolve(complete() ?? { status: null, body: received.toString('utf8') }));
    client.once('connect', () => {
      client.write(bytes);
      if (end) client.end();
    });
  });
  if (!client.destroyed)
    await new Promise<void>((resolve) => {
      client.once('close', () => resolve());
      client.destroy();
    });
  return answer;
}
