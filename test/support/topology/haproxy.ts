// HAProxy in front of the API processes, as a load balancer of a real deployment: HTTP mode,
// round robin, a backend in rotation only while its GET /readyz answers 200 (checked every
// 300 ms), and a request whose connection is refused (a killed process) tried again on another
// backend (`retries` + `option redispatch`). A request already sent to a process that dies is
// not retried (it may have been done): the client sees a 502. The config is written to the
// harness's temp dir; HAProxy runs in the foreground (-db) as the test's child, stopped at the end.
import fs from 'node:fs';
import path from 'node:path';
import { HAPROXY } from './binaries.js';
import { freePort, spawnLogged, waitUntil, type LoggedChild } from './processes.js';

export interface Backend {
  /** The server's name in HAProxy (and in its stats). */
  name: string;
  port: number;
}

export interface HaProxy {
  /** http://127.0.0.1:<port>, the load balancer's address. */
  baseUrl: string;
  configFile: string;
  process: LoggedChild;
  /** Each server's state from HAProxy's stats (UP, DOWN, MAINT, "UP 1/2"…). */
  serverStates(): Promise<Record<string, string>>;
  /** Waits until the named servers are in the state (UP or DOWN) HAProxy reports. */
  waitForServers(names: string[], state: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** The HAProxy configuration: one frontend, one backend of `backends`, a stats page. */
export function haproxyConfig(frontendPort: number, statsPort: number, backends: Backend[]): string {
  return [
    'global',
    '  maxconn 4000',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout check 1s',
    '  timeout http-request 10s',
    // A refused or failed connection is tried again, on another server each time.
    '  retries 3',
    '  option redispatch 1',
    '',
    'frontend api',
    `  bind 127.0.0.1:${frontendPort}`,
    '  option forwardfor',
    '  default_backend api',
    '',
    'backend api',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 300ms fastinter 200ms downinter 300ms fall 2 rise 1',
    ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`),
    '',
    'listen stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}

export async function startHaProxy(dir: string, backends: Backend[]): Promise<HaProxy> {
  const port = await freePort();
  const statsPort = await freePort();
  const configFile = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(configFile, haproxyConfig(port, statsPort, backends));
  const child = spawnLogged(HAPROXY, ['-f', configFile, '-db'], path.join(dir, 'haproxy.log'));
  const serverStates = async () => {
    if (child.exited()) throw new Error(`haproxy exited: ${child.tail()}`);
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const [header, ...rows] = csv.trim().split('\n');
    const columns = header.replace(/^# /, '').split(',');
    const [px, sv, status] = ['pxname', 'svname', 'status'].map((c) => columns.indexOf(c));
    return Object.fromEntries(
      rows
        .map((row) => row.split(','))
        .filter((cells) => cells[px] === 'api' && cells[sv] !== 'BACKEND' && cells[sv] !== 'FRONTEND')
        .map((cells) => [cells[sv], cells[status]]),
    );
  };
  const waitForServers = async (names: string[], state: 'UP' | 'DOWN', timeoutMs = 15_000) => {
    await waitUntil(
      `HAProxy servers ${names.join(', ')} ${state}`,
      async () => {
        const states = await serverStates();
        return names.every((name) => states[name]?.startsWith(state));
      },
      { timeoutMs },
    );
  };
  await waitUntil('HAProxy stats answering', () => serverStates().then(() => true), { timeoutMs: 10_000 });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    configFile,
    process: child,
    serverStates,
    waitForServers,
    stop: () => child.stop('SIGTERM', 2_000),
  };
}
