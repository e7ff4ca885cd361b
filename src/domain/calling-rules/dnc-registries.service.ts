// Do-not-call registry imports, as operations on a staged import: start one (the registry, the
// day the file was downloaded, the +1 area codes it covers), append its lines in chunks (read
// and checked here: a malformed line is a 400 naming it, and nothing of the chunk is written),
// then finish it (its copies replace the Account's copies of every scope it covers, in one
// transaction) or abandon it. A staged import is seen by nothing until it is finished; one left
// unfinished is deleted after an hour without a chunk. The surfaces stream a file into these
// operations (REST POST /dnc-registries/{registry}/imports, and the CLI through it).
// docs/decisions/0037-dnc-registry-imports.md; docs/dnc-registries.md.
import { randomUUID } from 'node:crypto';
import { directSql, type SqlClient } from '../../db/sql-client.js';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { badRequest, badRequestFor, notFound } from '../errors.js';
import { DNC_REGISTRIES, type DncRegistry } from './calling-rule.types.js';
import {
  AREA_CODE_PATTERN,
  blockOf,
  decodeBlock,
  encodeBlock,
  isDncRegistry,
  maxCopyAgeDays,
  mergeOffsets,
  readRegistryLine,
  REGISTRIES_BY_AREA_CODE,
} from './dnc-registries.rules.js';
import {
  advanceImport,
  bytesOfImport,
  copiesOf,
  deleteStaleImports,
  deleteStagingImport,
  insertImport,
  lockStagingImport,
  markLive,
  numbersByScope,
  stagedBlocks,
  swapCopies,
  writeBlocks,
  type ImportRow,
} from './dnc-registries.store.js';
import { releaseHeldEnrollments } from './dialing.store.js';

const DAY = 86_400_000;
/** A staged import without a chunk for this long was left by a crash or a client gone: deleted. */
export const STALE_IMPORT_MS = 60 * 60 * 1000;
/** The most lines one chunk may carry. */
export const MAX_CHUNK_LINES = 100_000;
/** The most area codes one import may name. */
const MAX_AREA_CODES = 1000;

export interface DncImportView {
  id: string;
  registry: DncRegistry;
  downloadedAt: Date;
  areaCodes: string[];
  /** The number of the next line expected: the lines received so far, plus one. */
  nextLine: number;
  /** Lines that held a number so far (repeats included). */
  numbersRead: number;
}

export interface DncImportResult {
  registry: DncRegistry;
  downloadedAt: Date;
  /** Lines read (blank and comment lines included). */
  lines: number;
  /** Distinct numbers stored. */
  numbers: number;
  /** The scopes whose copies it replaced: +1 area codes, else "*". */
  scopes: string[];
  /** The bytes of the blocks stored for it (rows with their headers and line pointers). */
  bytesStored: number;
  bytesPerNumber: number | null;
}

export interface DncCopyView {
  registry: DncRegistry;
  scope: string;
  downloadedAt: Date;
  importedAt: Date;
  numbers: number;
  /** The rule's most days (null: no rule of the rule set names the registry). */
  maxCopyAgeDays: number | null;
  /** Not older than maxCopyAgeDays now. */
  fresh: boolean;
  /** When it stops being fresh (null without a rule). */
  freshUntil: Date | null;
}

const viewOf = (row: ImportRow): DncImportView => ({
  id: row.id,
  registry: row.registry as DncRegistry,
  downloadedAt: row.downloadedAt,
  areaCodes: row.areaCodes,
  nextLine: row.nextLine,
  numbersRead: row.numbersRead,
});

const inTransaction = <T>(ctx: RequestContext, work: (tx: SqlClient) => Promise<T>) =>
  ctx.db.sql.transaction((runner) => work(directSql(runner)));

/** A date (read as 00:00 UTC that day) or a date-time with its offset; null when neither. */
function instantOf(text: string): Date | null {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (date) {
    const at = new Date(`${text}T00:00:00.000Z`);
    return Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text ? null : at;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * Starts an import of `registry`'s file downloaded at `downloadedAt` (a date, read as 00:00 UTC,
 * or a date-time; not in the future). `areaCodes`, for a +1 registry only: area codes whose copy
 * the import replaces even when the file lists no number of theirs. Imports left unfinished for
 * an hour, of any Account, are deleted first.
 */
export async function startDncRegistryImport(
  ctx: RequestContext,
  args: { registry: string; downloadedAt: string; areaCodes?: readonly string[] | null },
): Promise<DncImportView> {
  const { accountId } = requireActor(ctx);
  const now = ctx.clock.now();
  const issues: Array<{ path: string; message: string }> = [];
  const registry = isDncRegistry(args.registry) ? args.registry : null;
  if (!registry)
    issues.push({
      path: 'registry',
      message: `unknown registry "${args.registry.slice(0, 40)}" (one of ${Object.keys(DNC_REGISTRIES).join(', ')})`,
    });
  const downloadedAt = instantOf(args.downloadedAt);
  if (!downloadedAt)
    issues.push({ path: 'downloadedAt', message: 'expected a date (2026-11-20) or a date-time with its offset' });
  else if (downloadedAt.getTime() > now.getTime())
    issues.push({ path: 'downloadedAt', message: 'is in the future (a date is read as 00:00 UTC that day)' });
  const areaCodes = [...new Set((args.areaCodes ?? []).map((code) => code.trim()))].sort();
  if (areaCodes.length > 0 && registry && !REGISTRIES_BY_AREA_CODE.has(registry))
    issues.push({
      path: 'areaCodes',
      message: `only the +1 registries (${[...REGISTRIES_BY_AREA_CODE].join(', ')}) are kept per area code`,
    });
  else if (areaCodes.length > MAX_AREA_CODES) issues.push({ path: 'areaCodes', message: `at most ${MAX_AREA_CODES}` });
  else {
    const bad = areaCodes.find((code) => !AREA_CODE_PATTERN.test(code));
    if (bad !== undefined)
      issues.push({
        path: 'areaCodes',
        message: `"${bad.slice(0, 10)}" is not an area code (three digits, the first 2–9, not N11)`,
      });
  }
  if (issues.length > 0 || !registry || !downloadedAt) throw badRequestFor(issues);

  const row = { id: randomUUID(), accountId, registry, downloadedAt, areaCodes };
  await inTransaction(ctx, async (tx) => {
    await deleteStaleImports(tx, new Date(now.getTime() - STALE_IMPORT_MS), 20);
    await insertImport(tx, row, now);
  });
  return { ...row, nextLine: 1, numbersRead: 0 };
}

/**
 * Appends lines `firstLine`, `firstLine + 1`, … of the file to the staged import (lines are
 * counted from 1, each chunk right after the one before). Every line is read first: a malformed
 * one is a 400 naming its line, and nothing of the chunk is written. The numbers are merged
 * into the import's blocks.
 */
export async function appendDncRegistryLines(
  ctx: RequestContext,
  args: { importId: string; firstLine: number; lines: readonly string[] },
): Promise<DncImportView> {
  const { accountId } = requireActor(ctx);
  if (args.lines.length > MAX_CHUNK_LINES)
    throw badRequestFor([{ path: 'lines', message: `at most ${MAX_CHUNK_LINES} lines a chunk` }]);
  if (!Number.isInteger(args.firstLine) || args.firstLine < 1)
    throw badRequestFor([{ path: 'firstLine', message: 'expected a line number from 1' }]);
  const now = ctx.clock.now();
  return inTransaction(ctx, async (tx) => {
    const row = await lockStagingImport(tx, accountId, args.importId);
    if (!row) throw notFound(`No import ${args.importId} is being staged in this Account`);
    if (args.firstLine !== row.nextLine)
      throw badRequestFor([
        { path: 'firstLine', message: `expected ${row.nextLine}: each chunk follows on from the one before` },
      ]);
    const registry = row.registry as DncRegistry;
    // The chunk's numbers by block, every line read before anything is written.
    const byPrefix = new Map<string, number[]>();
    let numbers = 0;
    for (let i = 0; i < args.lines.length; i++) {
      const reading = readRegistryLine(registry, args.lines[i]);
      if (reading.kind === 'skip') continue;
      if (reading.kind === 'malformed')
        throw badRequestFor([{ path: `line ${args.firstLine + i}`, message: reading.message }]);
      numbers++;
      const { prefix, offset } = blockOf(reading.digits);
      const offsets = byPrefix.get(prefix);
      if (offsets) offsets.push(offset);
      else byPrefix.set(prefix, [offset]);
    }
    const prefixes = [...byPrefix.keys()];
    // A block written by an earlier chunk (a file not sorted, or a block across two chunks) is merged.
    const earlier = new Map(
      (await stagedBlocks(tx, row.id, prefixes)).map((b) => [b.prefix, decodeBlock(new Uint8Array(b.bits))]),
    );
    await writeBlocks(
      tx,
      row.id,
      prefixes.map((prefix) => ({
        prefix,
        bits: encodeBlock(mergeOffsets(byPrefix.get(prefix) as number[], earlier.get(prefix) ?? [])),
      })),
    );
    const nextLine = row.nextLine + args.lines.length;
    await advanceImport(tx, row.id, nextLine, row.numbersRead + numbers, now);
    return viewOf({ ...row, nextLine, numbersRead: row.numbersRead + numbers });
  });
}

/**
 * Finishes the staged import: in one transaction its copies replace the Account's copies of
 * every scope it covers (a +1 registry: the area codes of its numbers and those it named; any
 * other registry: the whole), what they replaced is deleted, and the enrollments the dialer set
 * aside are looked at again.
 */
export async function finishDncRegistryImport(
  ctx: RequestContext,
  args: { importId: string },
): Promise<DncImportResult> {
  const { accountId } = requireActor(ctx);
  const now = ctx.clock.now();
  return inTransaction(ctx, async (tx) => {
    const row = await lockStagingImport(tx, accountId, args.importId);
    if (!row) throw notFound(`No import ${args.importId} is being staged in this Account`);
    const registry = row.registry as DncRegistry;
    const byAreaCode = REGISTRIES_BY_AREA_CODE.has(registry);
    const counts = await numbersByScope(tx, row.id, byAreaCode);
    const scopes = byAreaCode ? [...new Set([...counts.keys(), ...row.areaCodes])].sort() : ['*'];
    if (scopes.length === 0)
      throw badRequestFor([
        {
          path: 'areaCodes',
          message: `the file lists no number and no area code was named: no copy of ${registry} to replace`,
        },
      ]);
    if (!byAreaCode && counts.size === 0)
      throw badRequest(`The file lists no number: an empty copy would say nobody is on ${registry}`);
    await swapCopies(tx, row, counts, scopes, byAreaCode, now);
    await markLive(tx, row.id, now);
    await releaseHeldEnrollments(tx, accountId, null, now);
    const numbers = [...counts.values()].reduce((a, b) => a + b, 0);
    const bytesStored = await bytesOfImport(tx, row.id);
    return {
      registry,
      downloadedAt: row.downloadedAt,
      lines: row.nextLine - 1,
      numbers,
      scopes,
      bytesStored,
      bytesPerNumber: numbers > 0 ? Math.round((bytesStored / numbers) * 100) / 100 : null,
    };
  });
}

/** Deletes the staged import and what it wrote; false when the Account has no such import staging. */
export async function abandonDncRegistryImport(ctx: RequestContext, args: { importId: string }): Promise<boolean> {
  const { accountId } = requireActor(ctx);
  return inTransaction(ctx, (tx) => deleteStagingImport(tx, accountId, args.importId));
}

/** The Account's registry copies, by registry and scope, with whether each is fresh now. */
export async function dncRegistryCopies(ctx: RequestContext): Promise<DncCopyView[]> {
  const { accountId } = requireActor(ctx);
  const now = ctx.clock.now();
  const rows = await copiesOf(directSql(ctx.db.sql), accountId);
  return rows.map((row) => {
    const registry = row.registry as DncRegistry;
    const days = maxCopyAgeDays(registry);
    const freshUntil = days === null ? null : new Date(row.downloadedAt.getTime() + days * DAY);
    return {
      registry,
      scope: row.scope,
      downloadedAt: row.downloadedAt,
      importedAt: row.importedAt,
      numbers: row.numbers,
      maxCopyAgeDays: days,
      fresh: freshUntil === null || now.getTime() <= freshUntil.getTime(),
      freshUntil,
    };
  });
}
