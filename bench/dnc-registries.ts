// Figure 12: importing a do-not-call registry file of N numbers (BENCH_DNC_NUMBERS, 10,000,000 by
// default): POST /api/v1/dnc-registries/us_national/imports with the file streamed from disk,
// until its 201, and the bytes the copy takes (pg_total_relation_size of the registry tables,
// indexes and TOAST included), against the raw driver in the same process reading the same file
// and inserting its numbers, 50,000 a statement, into a one-column bigint table with a primary
// key (what a lookup needs), with its own pg_total_relation_size. (COPY would be the faster
// baseline; the driver's COPY needs pg-copy-streams, which the project does not depend on.)
//
// The file is shaped like the FTC's: ten digits a line, sorted, area code after area code; each
// 10,000-number exchange holds 1,000 listed numbers (a density of 10%, so each block is a
// bitmap). A second, smaller import (N / 10 numbers, 100 a block: 2-byte codes) gives the bytes
// per number of a sparse registry.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { TestServer } from '../test/support/test-server.js';
import { figure, type Figure } from './run.js';
import { prng } from './seed.js';

/** Area codes the file covers, in order (each holds up to 800 exchanges, 200–999). */
const AREA_CODES = [201, 212, 213, 305, 310, 312, 404, 415, 469, 512, 617, 646, 702, 713, 718, 773, 818, 917];

/** Writes the registry file: `numbers` numbers, `perBlock` in each exchange used; returns its path. */
async function writeRegistryFile(dir: string, numbers: number, perBlock: number, seed: number): Promise<string> {
  const file = path.join(dir, `registry-${numbers}-${perBlock}.txt`);
  const out = fs.createWriteStream(file);
  const rand = prng(seed);
  const blocks = Math.ceil(numbers / perBlock);
  if (blocks > AREA_CODES.length * 800)
    throw new Error(`${numbers} numbers at ${perBlock} a block need more area codes`);
  let left = numbers;
  for (let b = 0; b < blocks; b++) {
    const area = AREA_CODES[Math.floor(b / 800)];
    const exchange = 200 + (b % 800);
    const count = Math.min(perBlock, left);
    left -= count;
    // `count` distinct offsets of 10,000, sorted (a partial Fisher–Yates over the block).
    const pool = Uint16Array.from({ length: 10_000 }, (_, i) => i);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(rand() * (10_000 - i));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    const offsets = pool.subarray(0, count).sort();
    let text = '';
    for (const n of offsets) text += `${area}${exchange}${String(n).padStart(4, '0')}\n`;
    if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return file;
}

/** POSTs the file, streamed; the 201's body and the time to it. */
async function importThroughService(server: TestServer, apiKey: string, file: string) {
  const t0 = performance.now();
  const response = await fetch(
    `${server.baseUrl}/api/v1/dnc-registries/us_national/imports?downloadedAt=${server.now().toISOString().slice(0, 10)}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'text/plain' },
      body: Readable.toWeb(fs.createReadStream(file, { highWaterMark: 1 << 20 })) as unknown as BodyInit,
      duplex: 'half',
    } as RequestInit,
  );
  const text = await response.text();
  const ms = performance.now() - t0;
  if (response.status !== 201) throw new Error(`registry import: HTTP ${response.status}: ${text.slice(0, 500)}`);
  return { ms, answer: JSON.parse(text) as { numbers: number; bytesStored: number; bytesPerNumber: number } };
}

/** The raw driver: the file's numbers into a one-column bigint table with a primary key, 50,000 a statement. */
async function importRaw(server: TestServer, file: string, table: string) {
  const sql = server.service.services.db.sql;
  await sql.exec(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (n bigint PRIMARY KEY)`);
  const t0 = performance.now();
  let batch: number[] = [];
  let partial = '';
  const flush = async () => {
    if (batch.length === 0) return;
    await sql.query(`INSERT INTO ${table} SELECT unnest($1::bigint[]) ON CONFLICT DO NOTHING`, [batch]);
    batch = [];
  };
  for await (const piece of fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (partial + piece).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line) batch.push(Number(`1${line}`));
      if (batch.length === 50_000) await flush();
    }
  }
  if (partial) batch.push(Number(`1${partial}`));
  await flush();
  const ms = performance.now() - t0;
  const bytes = await relationBytes(server, [table]);
  await sql.exec(`DROP TABLE ${table}`);
  return { ms, bytes };
}

async function relationBytes(server: TestServer, tables: string[]): Promise<number> {
  const { rows } = await server.service.services.db.sql.query<{ bytes: string }>(
    `SELECT sum(pg_total_relation_size(t::regclass))::text AS bytes FROM unnest($1::text[]) t`,
    [tables],
  );
  return Number(rows[0].bytes);
}

const REGISTRY_TABLES = ['"DncRegistryBlock"', '"DncRegistryCopy"', '"DncRegistryImport"'];

export async function benchDncImport(
  server: TestServer,
  options: { numbers: number },
  log: (message: string) => void,
): Promise<Figure> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-bench-dnc-'));
  try {
    const { numbers } = options;
    log(`   do-not-call registry: writing a file of ${numbers.toLocaleString('en-US')} numbers…`);
    const file = await writeRegistryFile(dir, numbers, 1000, 20261120);
    const fileBytes = fs.statSync(file).size;
    const account = await server.createAccount();
    const before = await relationBytes(server, REGISTRY_TABLES);
    log('   do-not-call registry: importing through the service…');
    const service = await importThroughService(server, account.apiKey, file);
    if (service.answer.numbers !== numbers) throw new Error(`registry import stored ${service.answer.numbers} numbers`);
    const stored = (await relationBytes(server, REGISTRY_TABLES)) - before;
    log('   do-not-call registry: the raw driver, same numbers into a bigint table…');
    const raw = await importRaw(server, file, 'bench_dnc_raw');

    // A sparse registry: 100 numbers a block (2-byte codes).
    const sparseNumbers = Math.max(1000, Math.round(numbers / 10));
    const sparseFile = await writeRegistryFile(dir, sparseNumbers, 100, 20261121);
    const sparseAccount = await server.createAccount();
    const sparseBefore = await relationBytes(server, REGISTRY_TABLES);
    const sparse = await importThroughService(server, sparseAccount.apiKey, sparseFile);
    const sparseStored = (await relationBytes(server, REGISTRY_TABLES)) - sparseBefore;
    const sparseRaw = await importRaw(server, sparseFile, 'bench_dnc_raw_sparse');

    const perSecond = (ms: number, n: number) => Math.round(n / (ms / 1000));
    const perNumber = (bytes: number, n: number) => Math.round((bytes / n) * 100) / 100;
    return figure([service.ms], [raw.ms], {
      id: 'dnc-import',
      name: `Import a ${numbers.toLocaleString('en-US')}-number do-not-call registry file (POST, streamed → 201)`,
      target: 'informational: time, numbers per second, bytes stored',
      pass: () => null,
      notes:
        'one run; raw: the same file read by the driver in the same process into a bigint PRIMARY KEY table, 50,000 numbers a statement',
      extra: {
        numbers,
        fileBytes,
        numbersPerSecond: perSecond(service.ms, numbers),
        rawNumbersPerSecond: perSecond(raw.ms, numbers),
        bytesStored: stored,
        bytesPerNumber: perNumber(stored, numbers),
        answerBytesPerNumber: service.answer.bytesPerNumber,
        rawBytes: raw.bytes,
        rawBytesPerNumber: perNumber(raw.bytes, numbers),
        bytesRatio: Math.round((stored / raw.bytes) * 1000) / 1000,
        sparse: {
          numbers: sparseNumbers,
          perBlock: 100,
          ms: Math.round(sparse.ms),
          numbersPerSecond: perSecond(sparse.ms, sparseNumbers),
          bytesStored: sparseStored,
          bytesPerNumber: perNumber(sparseStored, sparseNumbers),
          rawMs: Math.round(sparseRaw.ms),
          rawBytesPerNumber: perNumber(sparseRaw.bytes, sparseNumbers),
        },
      },
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
