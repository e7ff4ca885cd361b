// The SQL of do-not-call registry imports: an import staged in chunks (its blocks written under
// its id, seen by nothing until it is finished), the swap that points the Account's copies at it
// in one transaction, and the clean-up of what it replaced or of an import left unfinished.
// docs/decisions/0037-dnc-registry-imports.md.
import type { SqlClient } from '../../db/sql-client.js';
import { BITMAP_BYTES } from './dnc-registries.rules.js';

export interface ImportRow {
  id: string;
  accountId: string;
  registry: string;
  downloadedAt: Date;
  areaCodes: string[];
  status: 'staging' | 'live';
  nextLine: number;
  numbersRead: number;
}

export async function insertImport(
  tx: SqlClient,
  row: Omit<ImportRow, 'status' | 'nextLine' | 'numbersRead'>,
  now: Date,
): Promise<void> {
  await tx.$executeRaw`INSERT INTO "DncRegistryImport"
    ("id", "accountId", "registry", "downloadedAt", "areaCodes", "status", "nextLine", "numbersRead", "startedAt", "touchedAt")
    VALUES (${row.id}::uuid, ${row.accountId}::uuid, ${row.registry}, ${row.downloadedAt}::timestamptz,
      ${row.areaCodes}::text[], 'staging', 1, 0, ${now}::timestamptz, ${now}::timestamptz)`;
}

/** The Account's import still staging, locked for a chunk or the finish; null when there is none. */
export async function lockStagingImport(tx: SqlClient, accountId: string, importId: string): Promise<ImportRow | null> {
  const rows = await tx.$queryRaw<ImportRow[]>`SELECT "id", "accountId", "registry", "downloadedAt", "areaCodes",
      "status", "nextLine", "numbersRead"
    FROM "DncRegistryImport" WHERE "id" = ${importId}::uuid AND "accountId" = ${accountId}::uuid AND "status" = 'staging'
    FOR UPDATE`;
  return rows[0] ?? null;
}

/** The import's blocks already written among `prefixes`. */
export async function stagedBlocks(
  tx: SqlClient,
  importId: string,
  prefixes: readonly string[],
): Promise<Array<{ prefix: string; bits: Uint8Array }>> {
  if (prefixes.length === 0) return [];
  return tx.$queryRaw<Array<{ prefix: string; bits: Uint8Array }>>`SELECT "prefix", "bits" FROM "DncRegistryBlock"
    WHERE "importId" = ${importId}::uuid AND "prefix" = ANY(${[...prefixes]}::text[])`;
}

/** Writes the import's blocks (a block written before is replaced: the caller merged it). */
export async function writeBlocks(
  tx: SqlClient,
  importId: string,
  blocks: ReadonlyArray<{ prefix: string; bits: Buffer }>,
): Promise<void> {
  if (blocks.length === 0) return;
  await tx.$executeRaw`INSERT INTO "DncRegistryBlock" ("importId", "prefix", "bits")
    SELECT ${importId}::uuid, b.prefix, b.bits FROM unnest(${blocks.map((b) => b.prefix)}::text[],
      ${blocks.map((b) => b.bits)}::bytea[]) AS b(prefix, bits)
    ON CONFLICT ("importId", "prefix") DO UPDATE SET "bits" = EXCLUDED."bits"`;
}

export async function advanceImport(
  tx: SqlClient,
  importId: string,
  nextLine: number,
  numbersRead: number,
  now: Date,
): Promise<void> {
  await tx.$executeRaw`UPDATE "DncRegistryImport" SET "nextLine" = ${nextLine}, "numbersRead" = ${numbersRead},
    "touchedAt" = ${now}::timestamptz WHERE "id" = ${importId}::uuid`;
}

/**
 * The numbers of the import, per scope: for a +1 registry per area code (the prefix's digits 2–4:
 * `1415555` → 415), else all under "*". A bitmap counts its bits, a list of codes two bytes each.
 */
export async function numbersByScope(
  tx: SqlClient,
  importId: string,
  byAreaCode: boolean,
): Promise<Map<string, number>> {
  const rows = await tx.$queryRaw<Array<{ scope: string; numbers: number }>>`
    SELECT CASE WHEN ${byAreaCode} THEN substr("prefix", 2, 3) ELSE '*' END AS scope,
      sum(CASE WHEN length("bits") = ${BITMAP_BYTES} THEN bit_count("bits") ELSE length("bits") / 2 END)::int AS numbers
    FROM "DncRegistryBlock" WHERE "importId" = ${importId}::uuid GROUP BY 1`;
  return new Map(rows.map((r) => [r.scope, r.numbers]));
}

/** The bytes the import's blocks take as rows (each row's tuple with its header, and its line pointer). */
export async function bytesOfImport(tx: SqlClient, importId: string): Promise<number> {
  const rows = await tx.$queryRaw<Array<{ bytes: number }>>`
    SELECT COALESCE(sum(pg_column_size(b.*) + 4), 0)::float8 AS bytes FROM "DncRegistryBlock" b WHERE b."importId" = ${importId}::uuid`;
  return rows[0].bytes;
}

/**
 * Points the Account's copies of `scopes` at the import (one transaction with the caller's lock
 * on the import): the copies it replaces are read first, locked, then their imports' blocks of
 * those scopes are deleted, and an import no copy points at any more is deleted with what is left.
 */
export async function swapCopies(
  tx: SqlClient,
  row: ImportRow,
  counts: ReadonlyMap<string, number>,
  scopes: readonly string[],
  byAreaCode: boolean,
  now: Date,
): Promise<void> {
  const replaced = await tx.$queryRaw<Array<{ scope: string; importId: string }>>`
    SELECT "scope", "importId" FROM "DncRegistryCopy"
    WHERE "accountId" = ${row.accountId}::uuid AND "registry" = ${row.registry} AND "scope" = ANY(${[...scopes]}::text[])
    FOR UPDATE`;
  await tx.$executeRaw`INSERT INTO "DncRegistryCopy" ("accountId", "registry", "scope", "importId", "downloadedAt", "importedAt", "numbers")
    SELECT ${row.accountId}::uuid, ${row.registry}, s.scope, ${row.id}::uuid, ${row.downloadedAt}::timestamptz, ${now}::timestamptz, s.numbers
    FROM unnest(${[...scopes]}::text[], ${scopes.map((s) => counts.get(s) ?? 0)}::int[]) AS s(scope, numbers)
    ON CONFLICT ("accountId", "registry", "scope") DO UPDATE SET "importId" = EXCLUDED."importId",
      "downloadedAt" = EXCLUDED."downloadedAt", "importedAt" = EXCLUDED."importedAt", "numbers" = EXCLUDED."numbers"`;
  const oldImports = [...new Set(replaced.map((r) => r.importId))].filter((id) => id !== row.id);
  if (oldImports.length === 0) return;
  if (byAreaCode)
    await tx.$executeRaw`DELETE FROM "DncRegistryBlock" WHERE "importId" = ANY(${oldImports}::uuid[])
      AND substr("prefix", 2, 3) = ANY(${[...scopes]}::text[])`;
  await tx.$executeRaw`DELETE FROM "DncRegistryImport" i WHERE i."id" = ANY(${oldImports}::uuid[])
    AND NOT EXISTS (SELECT 1 FROM "DncRegistryCopy" c WHERE c."importId" = i."id")`;
}

export async function markLive(tx: SqlClient, importId: string, now: Date): Promise<void> {
  await tx.$executeRaw`UPDATE "DncRegistryImport" SET "status" = 'live', "touchedAt" = ${now}::timestamptz
    WHERE "id" = ${importId}::uuid`;
}

/** Deletes the Account's import still staging, with its blocks; false when there is none. */
export async function deleteStagingImport(tx: SqlClient, accountId: string, importId: string): Promise<boolean> {
  const deleted = await tx.$executeRaw`DELETE FROM "DncRegistryImport"
    WHERE "id" = ${importId}::uuid AND "accountId" = ${accountId}::uuid AND "status" = 'staging'`;
  return deleted > 0;
}

/** Deletes imports still staging that nothing touched since `before` (left by a crash or a client gone), with their blocks. */
export async function deleteStaleImports(tx: SqlClient, before: Date, limit: number): Promise<number> {
  return tx.$executeRaw`DELETE FROM "DncRegistryImport" WHERE "id" IN (
    SELECT "id" FROM "DncRegistryImport" WHERE "status" = 'staging' AND "touchedAt" < ${before}::timestamptz
    ORDER BY "touchedAt" LIMIT ${limit})`;
}

export interface CopyRow {
  registry: string;
  scope: string;
  downloadedAt: Date;
  importedAt: Date;
  numbers: number;
}

export async function copiesOf(tx: SqlClient, accountId: string): Promise<CopyRow[]> {
  return tx.$queryRaw<CopyRow[]>`SELECT "registry", "scope", "downloadedAt", "importedAt", "numbers"
    FROM "DncRegistryCopy" WHERE "accountId" = ${accountId}::uuid ORDER BY "registry", "scope"`;
}
