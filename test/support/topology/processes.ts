// Child processes of the topology harness: free ports, commands run to their end (as root or as
// the `postgres` OS user, which PostgreSQL and PgBouncer require: both refuse to run as root),
// long-running children with their output in a log file, and waiting on a condition by polling.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { runProcess, type ProcessRun } from '../child-process.js';

/** The OS user PostgreSQL and PgBouncer run as. */
export const DB_OS_USER = 'postgres';

/** A port nobody listens on now (the kernel's pick; free until someone else takes it). */
export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Polls `probe` until it returns a value other than undefined/false (a thrown error counts as
 * "not yet"), every `everyMs`, failing after `timeoutMs` with `what` and the last error.
 */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 30_000, everyMs = 100 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not within ${timeoutMs} ms${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Runs a command to its end; a non-zero exit throws with its output. */
export async function runChecked(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<ProcessRun> {
  const run = await runProcess(command, args, env ? { env } : {});
  if (run.code !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited ${run.code}:\n${run.stdout.slice(-2000)}${run.stderr.slice(-2000)}`,
    );
  return run;
}

/** `runuser -u postgres -- command args…`, to its end. */
export function runAsDbUser(command: string, args: string[]): Promise<ProcessRun> {
  return runChecked('runuser', ['-u', DB_OS_USER, '--', command, ...args]);
}

export interface LoggedChild {
  child: ChildProcess;
  /** The child's stdout and stderr, both written to this file. */
  logFile: string;
  /** The log's last characters (to explain a failure). */
  tail(chars?: number): string;
  exited(): boolean;
  /** Sends `signal` (default SIGTERM) and waits for the exit; SIGKILL after `graceMs`. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

/** Starts a long-running child with stdout and stderr appended to `logFile`. */
export function spawnLogged(
  command: string,
  args: string[],
  logFile: string,
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): LoggedChild {
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  // A spawn failure (ENOENT) is reported through exited()/tail(), not as an unhandled error.
  child.on('error', (error) => fs.appendFileSync(logFile, `\nspawn error: ${error.message}\n`));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    logFile,
    tail: (chars = 3000) => {
      try {
        return fs.readFileSync(logFile, 'utf8').slice(-chars);
      } catch {
        return '';
      }
    },
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000) {
      if (exited() || child.pid === undefined) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await done;
      clearTimeout(timer);
    },
  };
}

/** Sends `signal` to `pid` if it is alive; false when there was no such process. */
export function signalPid(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** The uid and gid of the `postgres` OS user (the owner of the harness's temp dir). */
export function dbOwner(): [number, number] {
  const passwd = fs.readFileSync('/etc/passwd', 'utf8').split('\n');
  const entry = passwd.find((line) => line.startsWith(`${DB_OS_USER}:`));
  if (!entry) throw new Error(`no ${DB_OS_USER} user in /etc/passwd`);
  const [, , uid, gid] = entry.split(':');
  return [Number(uid), Number(gid)];
}
