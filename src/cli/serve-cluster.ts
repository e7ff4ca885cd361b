// `contactline serve --processes N`: N service processes sharing one port (node:cluster), and
// what a single `serve` shares with them. The primary opens no database and serves nothing: it
// forks the children, prints the listening line once, starts a child again when one dies (with
// a backoff), and on SIGTERM or SIGINT stops them all, each finishing its requests in flight.
// Each child is the same `contactline serve` command (cluster.fork runs this program again),
// told its role in CLUSTER_ROLE_VARIABLE; it reports to the primary over the IPC channel and
// prints nothing on stdout. Why role `all` becomes one `all` child and the others `api`:
// docs/decisions/0043-process-roles.md.
import { performance } from 'node:perf_hooks';
import cluster, { type Worker } from 'node:cluster';
import type { Env } from '../config/env.js';
import type { ServiceRole } from '../config/service-role.js';
import { CliError, EXIT, type Output } from './output.js';
import { describeDatabase } from './operator.js';

/** The environment variable that gives a cluster's child its role. */
export const CLUSTER_ROLE_VARIABLE = 'CONTACTLINE_CLUSTER_ROLE';

/** How long a stopping process lets requests in flight finish before it cuts them. */
export const DRAIN_MS = 10_000;

/** A restarted child waits this long after its first failure, doubling up to RESTART_MAX_MS. */
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 30_000;
/** A child that ran this long before it died was healthy: its next restart waits RESTART_FIRST_MS again. */
const HEALTHY_RUN_MS = 60_000;

/** What a child tells the primary. */
type ChildMessage =
  | { type: 'listening'; baseUrl: string; database: 'postgres' | 'pglite' }
  | { type: 'failed'; message: string; exitCode: number };

/** A failure to start, said in one line: a port in use is about the machine, not the database. */
export async function startFailure(error: unknown, env: Env): Promise<CliError> {
  const { ListenError } = await import('../service.js');
  if (error instanceof ListenError) return new CliError(`Cannot start the service: ${error.message}.`);
  return new CliError(`Cannot start the service on the ${describeDatabase(env)}: ${(error as Error).message}`);
}

/** What the listening line says of the processes, beyond the database (nothing for one `all` process). */
export function describeRoles(roles: ServiceRole[]): string {
  if (roles.length === 1) {
    const [role] = roles;
    if (role === 'all') return '';
    return role === 'api' ? '; role api: no background work' : '; role worker: /healthz, /readyz and /metrics only';
  }
  const counts = (['all', 'api', 'worker'] as const)
    .map((role) => [role, roles.filter((r) => r === role).length] as const)
    .filter(([, count]) => count > 0)
    .map(([role, count]) => `${count} ${role}`);
  return `; ${roles.length} processes: ${counts.join(', ')}`;
}

/**
 * The role of each of `count` children. `all`: the first child runs everything, the others
 * the API only, so that the background loops run once, not `count` times (each would poll the
 * database every 250 ms to 1 s for work the first one already takes). `api` and `worker`: every child.
 */
export function clusterRoles(role: ServiceRole, count: number): ServiceRole[] {
  return Array.from({ length: count }, (_, index) => (role === 'all' && index > 0 ? 'api' : role));
}

/** A child of the cluster: starts the service in its role, says so to the primary, stops on SIGTERM. */
export async function serveClusterChild(env: Env, role: ServiceRole): Promise<void> {
  const tell = (message: ChildMessage) =>
    new Promise<void>((resolve) => {
      if (!process.send?.(message, () => resolve())) resolve();
    });
  // The terminal's Ctrl-C reaches every process of the group; the primary turns it into one
  // SIGTERM per child, so the child's own SIGINT is ignored (a second signal would force it).
  process.on('SIGINT', () => {});
  // SIGTERM from the primary (even while starting: the start finishes, then the service stops);
  // or the primary is gone (killed): the IPC channel closes.
  const stopAsked = new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('disconnect', () => resolve());
  });
  const { startService } = await import('../service.js');
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    // No demo account: a cluster runs on PostgreSQL, where none is made.
    service = await startService({ env, role, seedDemo: false });
  } catch (error) {
    const failure = await startFailure(error, env);
    // The primary reports it, once for the cluster; this process prints nothing.
    await tell({ type: 'failed', message: failure.message, exitCode: failure.exitCode });
    process.exitCode = failure.exitCode;
    if (process.connected) process.disconnect();
    return;
  }
  await tell({ type: 'listening', baseUrl: service.baseUrl, database: service.services.db.kind });
  await stopAsked;
  process.once('SIGTERM', () => process.exit(130));
  await service.stop({ drainMs: DRAIN_MS });
  if (process.connected) process.disconnect();
}

interface Slot {
  /** 1 to N: the child's place, kept by the children that replace it. */
  number: number;
  role: ServiceRole;
  worker?: Worker;
  /** When it started, on a monotonic timer (ms): only a duration is ever taken from it. */
  startedAt: number;
  /** Restarts since the slot's child last ran HEALTHY_RUN_MS. */
  failures: number;
  restartTimer?: NodeJS.Timeout;
  listening: boolean;
}

/** The primary of `serve --processes N`: forks, reports, restarts and stops the children. */
export async function serveClusterPrimary(out: Output, env: Env, role: ServiceRole, count: number): Promise<void> {
  const { logger } = await import('../logger.js');
  const slots: Slot[] = clusterRoles(role, count).map((slotRole, index) => ({
    number: index + 1,
    role: slotRole,
    startedAt: 0,
    failures: 0,
    listening: false,
  }));
  const bySlot = new Map<Worker, Slot>();
  let phase: 'starting' | 'running' | 'stopping' = 'starting';
  let startFailed: CliError | undefined;
  let stoppedWithErrors = false;
  let firstUrl = '';
  let database: 'postgres' | 'pglite' = 'postgres';

  let settle: () => void = () => {};
  const everyoneListening = new Promise<void>((resolve) => (settle = resolve));
  let allExited: () => void = () => {};
  const exited = new Promise<void>((resolve) => (allExited = resolve));
  const live = () => slots.filter((slot) => slot.worker);

  const fork = (slot: Slot) => {
    slot.restartTimer = undefined;
    slot.startedAt = performance.now();
    const worker = cluster.fork({ [CLUSTER_ROLE_VARIABLE]: slot.role });
    slot.worker = worker;
    bySlot.set(worker, slot);
    worker.on('message', (message: ChildMessage) => {
      if (message?.type === 'listening') {
        firstUrl ||= message.baseUrl;
        database = message.database;
        if (phase === 'running')
          logger.info(
            { slot: slot.number, role: slot.role, pid: worker.process.pid },
            'cluster: process started again',
          );
        slot.listening = true;
        if (phase === 'starting' && slots.every((s) => s.listening)) settle();
      } else if (message?.type === 'failed') {
        if (phase === 'starting') {
          startFailed ??= new CliError(message.message, message.exitCode);
          stopAll();
        } else
          logger.warn(
            { slot: slot.number, role: slot.role, error: message.message },
            'cluster: a process could not start',
          );
      }
    });
  };

  const stopAll = () => {
    if (phase === 'stopping') return;
    phase = 'stopping';
    settle();
    for (const slot of slots) clearTimeout(slot.restartTimer);
    for (const slot of live()) slot.worker?.process.kill('SIGTERM');
    if (live().length === 0) allExited();
  };

  cluster.on('exit', (worker, code, signal) => {
    const slot = bySlot.get(worker);
    if (!slot) return;
    bySlot.delete(worker);
    slot.worker = undefined;
    slot.listening = false;
    if (phase === 'stopping') {
      if (code !== 0) stoppedWithErrors = true;
      if (live().length === 0) allExited();
      return;
    }
    if (phase === 'starting') {
      // A child that dies before the cluster ever listened: the start failed (its message, if it sent one).
      startFailed ??= new CliError(
        `Cannot start the service on the ${describeDatabase(env)}: a process exited (${signal ?? `code ${code}`}) before listening`,
      );
      stopAll();
      return;
    }
    if (performance.now() - slot.startedAt >= HEALTHY_RUN_MS) slot.failures = 0;
    const delay = Math.min(RESTART_FIRST_MS * 2 ** slot.failures, RESTART_MAX_MS);
    slot.failures += 1;
    logger.warn(
      { slot: slot.number, role: slot.role, pid: worker.process.pid, code, signal, restartInMs: delay },
      'cluster: a process exited unexpectedly; starting another',
    );
    slot.restartTimer = setTimeout(() => fork(slot), delay);
  });

  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      out.note('Forced exit.');
      for (const slot of live()) slot.worker?.process.kill('SIGKILL');
      process.exit(130);
    }
    signalled = signal;
    if (phase === 'running')
      out.note(
        `${signal}: stopping ${count} processes (finishing in-flight requests and jobs; send it again to force)...`,
      );
    stopAll();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  for (const slot of slots) fork(slot);
  await everyoneListening;
  if (phase === 'starting') {
    phase = 'running';
    const roles = slots.map((slot) => slot.role);
    out.line(
      `Contactline listening on ${firstUrl} (${describeDatabase(env)}${describeRoles(roles)}). Stop with Ctrl-C.`,
    );
    if (roles.some((r) => r !== 'worker')) out.line(`  Console: ${firstUrl}/console/`);
    out.result({
      ok: true,
      url: firstUrl,
      database,
      role,
      processes: slots.map((slot) => ({ pid: slot.worker?.process.pid, role: slot.role })),
      demo: null,
    });
  }
  await exited;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (startFailed) throw startFailed;
  if (stoppedWithErrors) {
    out.note('Stopped; a process did not stop cleanly (see its log lines).');
    process.exitCode = EXIT.failed;
    return;
  }
  out.note('Stopped.');
}
