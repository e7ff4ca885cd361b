// `serve` (the service: one process, or several sharing a port) and `migrate` (apply the SQL migrations).
import cluster from 'node:cluster';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Env } from '../config/env.js';
import { MAX_SERVICE_PROCESSES, parseProcessCount, SERVICE_ROLES, type ServiceRole } from '../config/service-role.js';
import { CliError, createOutput, jsonOption, usageError, type Output } from './output.js';
import { describeDatabase, openFromEnv, readEnv } from './operator.js';
import {
  CLUSTER_ROLE_VARIABLE,
  DRAIN_MS,
  describeRoles,
  serveClusterChild,
  serveClusterPrimary,
  startFailure,
} from './serve-cluster.js';

/** Quotes a value for a POSIX shell (single quotes). */
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

interface ServeOptions {
  json?: boolean;
  role?: ServiceRole;
  processes?: number;
}

export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'start the service (HTTP API, GraphQL, job workers); a brand-new embedded database gets a demo account',
    )
    .addOption(
      new Option(
        '--role <role>',
        'what the process runs: all (the API and the background work), api (the API only), worker (the background work, and the probes); default SERVICE_ROLE, else all',
      ).choices(SERVICE_ROLES),
    )
    .addOption(
      new Option(
        '--processes <n>',
        'processes sharing the port (node:cluster), a number or auto (one per CPU); default SERVICE_PROCESSES, else 1',
      ).argParser((value) => {
        const count = parseProcessCount(value);
        if (count === undefined)
          throw new InvalidArgumentError(`Expected a whole number from 1 to ${MAX_SERVICE_PROCESSES}, or auto.`);
        return count;
      }),
    )
    .addOption(jsonOption())
    .action(async (opts: ServeOptions) => {
      const out = createOutput(!!opts.json);
      const env = await readEnv();
      const role = opts.role ?? env.SERVICE_ROLE;
      const processes = opts.processes ?? parseProcessCount(env.SERVICE_PROCESSES) ?? 1;
      // The embedded database is opened by one process (src/db/data-dir-lock.ts), which must do everything.
      if (!env.DATABASE_URL && (role !== 'all' || processes > 1))
        throw usageError(
          `${role !== 'all' ? `--role ${role}` : `--processes ${processes}`} needs PostgreSQL (set DATABASE_URL): the embedded database is opened by one process only, which runs everything (--role all, one process).`,
        );
      if (cluster.isWorker) {
        const childRole = process.env[CLUSTER_ROLE_VARIABLE] as ServiceRole | undefined;
        return serveClusterChild(env, childRole ?? role);
      }
      if (processes > 1) return serveClusterPrimary(out, env, role, processes);
      return serveOne(out, env, role);
    });
}

/** The service in this process. */
async function serveOne(out: Output, env: Env, role: ServiceRole): Promise<void> {
  const { startService } = await import('../service.js');
  let service: Awaited<ReturnType<typeof import('../service.js').startService>>;
  try {
    service = await startService({ env, seedDemo: true, role });
  } catch (error) {
    throw await startFailure(error, env);
  }
  const { baseUrl, demo } = service;
  if (demo) {
    // The simulator's outcome for this number is a converted call, with a transcript.
    const body = JSON.stringify({
      phone: '+14155552672',
      firstName: 'Ada',
      lastName: 'Lovelace',
      externalId: 'demo-1',
      assignmentOptions: { workflowId: demo.workflowId },
      // A US telemarketing call needs the contact's prior express written consent (docs/calling-rules.md).
      consent: {
        kind: 'express_written',
        method: 'web_form',
        evidence: 'demo: the sign-up form',
        obtainedAt: service.services.clock.now().toISOString(),
      },
    });
    const auth = shq(`Authorization: Bearer ${demo.apiKey}`);
    out.line('A new embedded database: created a demo account.');
    out.line(`  Console:              ${baseUrl}/console/ (sign in as ${demo.consoleEmail})`);
    out.line(`  Console password (shown once): ${demo.consolePassword}`);
    out.line(`  API key (shown once): ${demo.apiKey}`);
    out.line(`  Workflow id:          ${demo.workflowId}`);
    out.line(`  Account id:           ${demo.accountId}`);
    out.line(`  User id:              ${demo.userId}`);
    out.line(
      'Try it: enroll a contact, with its consent; the demo agent (simulated) calls it within seconds while it is 09:00-21:00 in California (GET .../dialing says when otherwise).',
    );
    out.line(
      `  curl -X PUT ${shq(`${baseUrl}/api/v1/contacts/upsert`)} -H ${auth} -H 'Content-Type: application/json' -d ${shq(body)}`,
    );
    out.line("Then read its calls, and a call's transcript:");
    out.line(`  curl ${shq(`${baseUrl}/api/v1/contacts/source/api/external-id/demo-1/calls`)} -H ${auth}`);
    out.line(`  curl ${shq(`${baseUrl}/api/v1/calls/<call id>/transcript`)} -H ${auth}`);
    out.line();
  }
  out.line(`Contactline listening on ${baseUrl} (${describeDatabase(env)}${describeRoles([role])}). Stop with Ctrl-C.`);
  if (role !== 'worker') out.line(`  Console: ${baseUrl}/console/`);
  out.result({
    ok: true,
    url: baseUrl,
    database: service.services.db.kind,
    role,
    processes: [{ pid: process.pid, role }],
    ...(env.DATABASE_URL ? {} : { dataDir: path.resolve(env.DATA_DIR) }),
    demo: demo
      ? {
          accountId: demo.accountId,
          userId: demo.userId,
          workflowId: demo.workflowId,
          apiKey: demo.apiKey,
          consoleEmail: demo.consoleEmail,
          consolePassword: demo.consolePassword,
        }
      : null,
  });

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  out.note(`${signal}: stopping (finishing in-flight requests and jobs; send it again to force)...`);
  const force = () => {
    out.note('Forced exit.');
    process.exit(130);
  };
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  await service.stop({ drainMs: DRAIN_MS });
  out.note('Stopped.');
}

export function migrateCommand(): Command {
  return new Command('migrate')
    .description(
      'apply the database migrations (PGlite under DATA_DIR, or PostgreSQL at DATABASE_DIRECT_URL, else DATABASE_URL)',
    )
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const env = await readEnv();
      // Migrations run on a session of their own, past any transaction pooler.
      const db = await openFromEnv(env, { direct: true });
      try {
        const { migrate } = await import('../db/migrate.js');
        const result = await migrate(db.sql);
        if (result.applied.length === 0)
          out.line(`The ${describeDatabase(env)} is up to date: no migrations to apply.`);
        else {
          out.line(`Applied ${result.applied.length} migration(s) to the ${describeDatabase(env)}:`);
          for (const name of result.applied) out.line(`  ${name}`);
        }
        out.result({
          ok: true,
          database: db.kind,
          ...(env.DATABASE_URL ? {} : { dataDir: path.resolve(env.DATA_DIR) }),
          applied: result.applied,
        });
      } catch (error) {
        throw new CliError(`Migration failed: ${(error as Error).message}`);
      } finally {
        await db.close();
      }
    });
}
