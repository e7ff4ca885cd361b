// The whole topology, started and stopped by a test: a PostgreSQL primary, a streaming replica,
// PgBouncer (transaction mode) in front of the primary, `contactline serve` API processes behind
// HAProxy and worker processes, in a temp dir owned by the `postgres` OS user. stop() tears down
// whatever was started, also after a failed start: children killed, clusters stopped
// (`pg_ctl stop -m immediate`), the temp dir removed (kept when TOPOLOGY_KEEP_DIR is set, to read
// the logs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  migrate,
  sharedSettings,
  startServiceProcess,
  type DatabaseUrls,
  type ServiceProcess,
  type ServiceRole,
  type SharedSettings,
} from './contactline-process.js';
import { startHaProxy, type HaProxy } from './haproxy.js';
import { startPgBouncer, type PgBouncer } from './pgbouncer.js';
import { SERVICE_DATABASE, startPrimary, startReplica, waitForReplay, type Cluster } from './postgres-cluster.js';
import { dbOwner, freePort } from './processes.js';

export interface TopologyOptions {
  /** API processes behind the load balancer. */
  apiProcesses: number;
  workers: number;
  /** Variables for every service process (rate limits, the simulator's speed…). */
  env?: Record<string, string>;
}

export interface Topology {
  dir: string;
  primary: Cluster;
  replica: Cluster;
  pgbouncer: PgBouncer;
  haproxy: HaProxy;
  urls: DatabaseUrls;
  shared: SharedSettings;
  api: ServiceProcess[];
  workers: ServiceProcess[];
  /** The load balancer's address. */
  baseUrl: string;
  /** Starts one more service process (a restart: the same name and port), stopped with the rest. */
  startService(name: string, role: ServiceRole, port?: number): Promise<ServiceProcess>;
}

export interface TopologyHandle {
  /** Starts everything; what started before a failure is still stopped by stop(). */
  start(): Promise<Topology>;
  stop(): Promise<void>;
}

export function createTopology(options: TopologyOptions): TopologyHandle {
  // What to stop, by layer: the processes (layer 0) before the pooler (1) before the clusters (2).
  const stops: Array<{ layer: number; stop(): Promise<void> }> = [];
  let dir: string | null = null;
  const remember =
    (layer: number) =>
    <T extends { stop(): Promise<void> }>(thing: T): T => {
      stops.push({ layer, stop: () => thing.stop() });
      return thing;
    };
  return {
    async start() {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contactline-topology-'));
      fs.chownSync(dir, ...dbOwner());
      fs.chmodSync(dir, 0o700);
      const primary = remember(2)(await startPrimary(dir));
      const urls: DatabaseUrls = { pooled: '', direct: primary.url(), read: '' };
      const [replica, pgbouncer] = await Promise.all([
        startReplica(dir, primary).then(remember(2)),
        startPgBouncer(dir, primary, SERVICE_DATABASE).then(remember(1)),
        migrate(urls, dir),
      ]);
      urls.pooled = pgbouncer.url();
      urls.read = replica.url();
      // The migrations reached the replica too, before any process reads from it.
      await waitForReplay(primary, replica);
      const shared = sharedSettings(options.env);
      const workDir = dir;
      // Torn down with SIGKILL: the test's data is thrown away, and a graceful stop of five
      // processes (each finishing its jobs) would add seconds to every run.
      const start = (name: string, role: ServiceRole, port?: number) =>
        startServiceProcess({ name, role, urls, shared, dir: workDir, port }).then((service) => {
          remember(0)({ stop: () => service.kill() });
          return service;
        });
      const apiPorts = await Promise.all(Array.from({ length: options.apiProcesses }, () => freePort()));
      const [api, workers] = await Promise.all([
        Promise.all(apiPorts.map((port, i) => start(`api${i + 1}`, 'api', port))),
        Promise.all(Array.from({ length: options.workers }, (_, i) => start(`worker${i + 1}`, 'worker'))),
      ]);
      const haproxy = remember(0)(
        await startHaProxy(
          dir,
          api.map((p) => ({ name: p.name, port: p.port })),
        ),
      );
      await haproxy.waitForServers(
        api.map((p) => p.name),
        'UP',
      );
      return {
        dir,
        primary,
        replica,
        pgbouncer,
        haproxy,
        urls,
        shared,
        api,
        workers,
        baseUrl: haproxy.baseUrl,
        startService: start,
      };
    },
    async stop() {
      // The load balancer and the service processes at once, then the pooler, then the clusters.
      for (const layer of [0, 1, 2]) {
        const now = stops.filter((s) => s.layer === layer);
        await Promise.all(now.map((s) => s.stop().catch(() => undefined)));
      }
      stops.length = 0;
      if (dir && !process.env.TOPOLOGY_KEEP_DIR) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
