// An HTTP client of the topology that keeps every answer it got: its status (or that the
// connection failed), and when the request started and ended, so that a test can check what a
// client behind the load balancer saw, and excuse only what a killed process had in flight.
import { performance } from 'node:perf_hooks';

export interface RecordedAnswer {
  method: string;
  path: string;
  /** The HTTP status, or 0 when no answer came (a refused or reset connection). */
  status: number;
  /** performance.now() when the request was sent and when its answer (or failure) came. */
  startedAt: number;
  endedAt: number;
  error?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** A client of one base URL with one bearer token; answers recorded in `answers`. */
export class RecordingClient {
  readonly answers: RecordedAnswer[] = [];

  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const startedAt = performance.now();
    try {
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      this.answers.push({ method, path, status: res.status, startedAt, endedAt: performance.now() });
      let json: any = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      return { status: res.status, headers: res.headers, text, json };
    } catch (error) {
      this.answers.push({
        method,
        path,
        status: 0,
        startedAt,
        endedAt: performance.now(),
        error: (error as Error).message,
      });
      return { status: 0, headers: new Headers(), text: '', json: null };
    }
  }

  /** A request that must answer `expected`; anything else throws with the answer. */
  async expect(
    expected: number | number[],
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer> {
    const answer = await this.request(method, path, body, headers);
    const statuses = Array.isArray(expected) ? expected : [expected];
    if (!statuses.includes(answer.status))
      throw new Error(
        `${method} ${path} answered ${answer.status} (expected ${statuses.join('/')}): ${answer.text.slice(0, 500)}`,
      );
    return answer;
  }

  /** POST /graphql; throws on errors. */
  async graphql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const answer = await this.expect(200, 'POST', '/graphql', { query, variables });
    if (answer.json?.errors?.length || !answer.json?.data)
      throw new Error(`GraphQL: ${JSON.stringify(answer.json?.errors ?? answer.text).slice(0, 500)}`);
    return answer.json.data as T;
  }
}

/** A window of time in which a process was being killed: [from, to] in performance.now(). */
export interface KillWindow {
  name: string;
  from: number;
  to: number;
}

/**
 * The answers a client behind the load balancer must never see: anything but a 2xx or a 429,
 * except a 502 or a failed connection of a request that was in flight while a process was
 * killed (sent before the load balancer took the process out of rotation, answered after the
 * kill): such a request may have reached the dying process, which never answered it; HAProxy
 * retries only a connection it could not open, not a request it already sent.
 */
export function unexpectedAnswers(answers: RecordedAnswer[], kills: KillWindow[]): RecordedAnswer[] {
  return answers.filter((a) => {
    if ((a.status >= 200 && a.status < 300) || a.status === 429) return false;
    const inFlightDuringKill = kills.some((k) => a.startedAt <= k.to && a.endedAt >= k.from);
    return !(inFlightDuringKill && (a.status === 502 || a.status === 0));
  });
}
