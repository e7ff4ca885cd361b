// `contactline dnc import --registry us_national --downloaded-at 2026-11-20 FILE --key svc_pk_...`:
// streams a do-not-call registry file to POST /api/v1/dnc-registries/{registry}/imports of a
// running service (through the typed client, contactline/client), as it is read from disk, and
// prints what the service stored. The service reads each line (a malformed one is refused by
// its line number, and nothing is stored). `contactline dnc list` prints the Account's copies.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Command, Option } from 'commander';
import { CliError, createOutput, EXIT, jsonOption, usageError } from './output.js';
import { createContactlineClient, type components, type ContactlineClient, type ErrorBody } from '../client/index.js';

type ImportAnswer = { data?: components['schemas']['DncRegistryImportResult']; error?: unknown; response: Response };

const REGISTRIES = ['us_national', 'ca_national', 'fr_bloctel', 'gb_tps', 'es_robinson', 'mx_repep', 'il_do_not_call'];

const keyOption = () =>
  new Option('--key <key>', 'API key (svc_pk_...)').env('CONTACTLINE_API_KEY').makeOptionMandatory();
const urlOption = () =>
  new Option('--url <url>', 'service base URL').env('CONTACTLINE_URL').default('http://127.0.0.1:3000');

/** The client for --url and --key; a key or URL that cannot be right is a usage error. */
function clientOf(opts: { key: string; url: string }): { client: ContactlineClient; url: string } {
  if (!opts.key.startsWith('svc_pk_')) throw usageError('--key must be an API key (svc_pk_...)');
  let base: URL;
  try {
    base = new URL(opts.url);
  } catch {
    throw usageError(`--url "${opts.url}" is not a URL (e.g. http://127.0.0.1:3000)`);
  }
  const url = base.origin + base.pathname.replace(/\/$/, '');
  return { client: createContactlineClient({ baseUrl: url, apiKey: opts.key }), url };
}

/** A refusal of the service as a CLI error: its message, its `issues`, its code. */
function refused(status: number, body: ErrorBody | undefined): CliError {
  const issues = (body?.issues ?? []).map((i) => `${i.path}: ${i.message}`);
  const message = body?.message ?? `HTTP ${status}`;
  return new CliError(
    `the service refused the import (HTTP ${status}): ${issues.length && !message.includes(issues[0]) ? `${message} (${issues.join('; ')})` : message}`,
    status === 400 ? EXIT.usage : EXIT.failed,
    body?.code ?? 'failed',
  );
}

const unreachable = (url: string, error: unknown) =>
  new CliError(`cannot reach ${url}: ${(error as Error)?.cause ?? (error as Error)?.message ?? String(error)}`);

export function dncCommand(): Command {
  const dnc = new Command('dnc').description(
    "do-not-call registries: import a registry file, list the Account's copies (through a running service)",
  );
  dnc
    .command('import')
    .description('import a registry file (one number a line), streamed to the service')
    .argument('<file>', 'the registry file, as downloaded (text, one number a line)')
    .addOption(new Option('--registry <registry>', 'the registry').choices(REGISTRIES).makeOptionMandatory())
    .requiredOption('--downloaded-at <date>', 'when the file was downloaded: 2026-11-20, or a date-time with offset')
    .option(
      '--area-codes <codes>',
      'us_national, ca_national: area codes (comma-separated) whose copy the file replaces even without numbers',
    )
    .addOption(keyOption())
    .addOption(urlOption())
    .addOption(jsonOption())
    .action(
      async (
        file: string,
        opts: { registry: string; downloadedAt: string; areaCodes?: string; key: string; url: string; json?: boolean },
      ) => {
        const out = createOutput(!!opts.json);
        const { client, url } = clientOf(opts);
        const filePath = path.resolve(file);
        if (!fs.existsSync(filePath) || !fs.statSync(filePath).isFile())
          throw new CliError(`No such file: ${filePath}`);
        const bytes = fs.statSync(filePath).size;
        // A duration, not a time of day: the monotonic clock (the one Clock is for timestamps).
        const started = performance.now();
        let result: ImportAnswer;
        try {
          result = await send(client, filePath, opts);
        } catch (error) {
          throw unreachable(url, error);
        }
        if (!result.data) throw refused(result.response.status, result.error as ErrorBody | undefined);
        const seconds = (performance.now() - started) / 1000;
        const r = result.data;
        out.line(
          `Imported ${path.basename(filePath)} (${bytes.toLocaleString('en-US')} bytes, ${r.lines.toLocaleString('en-US')} lines) into ${url}: ` +
            `${r.numbers.toLocaleString('en-US')} numbers of ${r.registry} downloaded ${r.downloadedAt}, in ${seconds.toFixed(1)} s.`,
        );
        out.line(`Copies replaced: ${r.scopes.join(', ')}.`);
        out.line(
          `Stored: ${r.bytesStored.toLocaleString('en-US')} bytes${r.bytesPerNumber === null ? '' : ` (${r.bytesPerNumber} bytes a number)`}.`,
        );
        out.result({ ok: true, file: filePath, url, seconds, ...r });
      },
    );
  dnc
    .command('list')
    .description("list the Account's registry copies and whether each is fresh")
    .addOption(keyOption())
    .addOption(urlOption())
    .addOption(jsonOption())
    .action(async (opts: { key: string; url: string; json?: boolean }) => {
      const out = createOutput(!!opts.json);
      const { client, url } = clientOf(opts);
      const result = await client.GET('/api/v1/dnc-registries').catch((error: unknown) => {
        throw unreachable(url, error);
      });
      if (!result.data) throw refused(result.response.status, result.error as ErrorBody | undefined);
      for (const c of result.data.data)
        out.line(
          `${c.registry} ${c.scope}: ${c.numbers.toLocaleString('en-US')} numbers, downloaded ${c.downloadedAt.slice(0, 10)}, ${c.fresh ? 'fresh' : 'STALE'}${c.freshUntil ? ` (until ${c.freshUntil.slice(0, 10)})` : ''}`,
        );
      if (result.data.data.length === 0) out.line('No registry copy yet.');
      out.result({ ok: true, copies: result.data.data });
    });
  return dnc;
}

/** POSTs the file as a stream (never read whole): the service reads it as it arrives. */
async function send(
  client: ContactlineClient,
  filePath: string,
  opts: { registry: string; downloadedAt: string; areaCodes?: string },
) {
  const body = Readable.toWeb(fs.createReadStream(filePath)) as unknown as string;
  return (await client.POST('/api/v1/dnc-registries/{registry}/imports', {
    params: {
      path: { registry: opts.registry as 'us_national' },
      query: { downloadedAt: opts.downloadedAt, ...(opts.areaCodes ? { areaCodes: opts.areaCodes } : {}) },
    },
    body,
    bodySerializer: (stream: unknown) => stream as string,
    headers: { 'content-type': 'text/plain' },
    // A stream sent as it is read (Node's fetch needs it said).
    duplex: 'half',
  } as never)) as ImportAnswer;
}
