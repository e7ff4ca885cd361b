// The console's CSV uploads (the CsvUpload table): one person's file between its preview and its
// import. Every read is scoped to the person and their Account, and an expired upload is gone.
import type { Prisma } from '../../../generated/prisma/client.js';
import type { RequestContext } from '../../context.js';

/** A readable record as stored: its numbers in the file and its cells in header order. */
export interface StoredRow {
  row: number;
  line: number;
  cells: string[];
}

/** A row not imported, with why. */
export interface RowRejection {
  row: number;
  line: number;
  reason: string;
  message: string;
}

/** An upload without its rows (which only an import step reads). */
export interface UploadRecord {
  id: string;
  fileName: string;
  headers: string[];
  preview: StoredRow[];
  rowCount: number;
  readable: number;
  mapping: string[];
  nextIndex: number;
  accepted: number;
  rejected: RowRejection[];
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date;
}

export interface Owner {
  accountId: string;
  userId: string;
}

const WITHOUT_ROWS = { rows: false, accountId: false, userId: false } as const;

const asRecord = (row: Record<string, unknown>): UploadRecord => row as unknown as UploadRecord;

export async function insertUpload(
  ctx: RequestContext,
  owner: Owner,
  upload: Omit<UploadRecord, 'id' | 'mapping' | 'nextIndex' | 'accepted' | 'startedAt' | 'finishedAt'> & {
    rows: StoredRow[];
  },
): Promise<UploadRecord> {
  const created = await ctx.db.prisma.csvUpload.create({
    data: {
      ...owner,
      ...upload,
      rows: upload.rows as unknown as Prisma.InputJsonValue,
      preview: upload.preview as unknown as Prisma.InputJsonValue,
      rejected: upload.rejected as unknown as Prisma.InputJsonValue,
    },
    omit: WITHOUT_ROWS,
  });
  return asRecord(created);
}

/** The person's upload, unexpired; null: none (or another person's, or expired). */
export async function findUpload(ctx: RequestContext, owner: Owner, id: string): Promise<UploadRecord | null> {
  const found = await ctx.db.prisma.csvUpload.findFirst({
    where: { id, ...owner, expiresAt: { gt: ctx.clock.now() } },
    omit: WITHOUT_ROWS,
  });
  return found ? asRecord(found) : null;
}

/** The rows of an upload from `from`, at most `take`. */
export async function uploadRows(ctx: RequestContext, id: string, from: number, take: number): Promise<StoredRow[]> {
  const found = await ctx.db.prisma.csvUpload.findUnique({ where: { id }, select: { rows: true } });
  return ((found?.rows ?? []) as unknown as StoredRow[]).slice(from, from + take);
}

/** Records the mapping once: false when the import had started already. */
export async function startUpload(ctx: RequestContext, id: string, mapping: string[], at: Date): Promise<boolean> {
  const { count } = await ctx.db.prisma.csvUpload.updateMany({
    where: { id, startedAt: null },
    data: { mapping, startedAt: at },
  });
  return count === 1;
}

/**
 * Records a step's outcome if no other step recorded one since `fromIndex` was read (a second
 * tab, a double click): one step's rows are counted once. False: another step got there first.
 */
export async function recordStep(
  ctx: RequestContext,
  id: string,
  step: {
    fromIndex: number;
    toIndex: number;
    accepted: number;
    rejected: RowRejection[];
    finishedAt: Date | null;
    expiresAt: Date;
  },
): Promise<boolean> {
  const { count } = await ctx.db.prisma.csvUpload.updateMany({
    where: { id, nextIndex: step.fromIndex },
    data: {
      nextIndex: step.toIndex,
      accepted: { increment: step.accepted },
      rejected: step.rejected as unknown as Prisma.InputJsonValue,
      finishedAt: step.finishedAt,
      expiresAt: step.expiresAt,
    },
  });
  return count === 1;
}

/** Forgets every expired upload (of anyone): what it held is no longer needed. */
export async function deleteExpiredUploads(ctx: RequestContext): Promise<void> {
  await ctx.db.prisma.csvUpload.deleteMany({ where: { expiresAt: { lte: ctx.clock.now() } } });
}
