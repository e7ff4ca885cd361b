// The SqlClient every *.store.ts runs its Prisma.sql statements on: the Prisma client (or a
// transaction of it), or the raw driver through directSql.
import { Prisma } from '../generated/prisma/client.js';
import type { SqlRunner } from './database.js';

/** Anything that can run raw SQL: the Prisma client or a transaction of it. */
export interface SqlClient {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Prisma.PrismaPromise<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Prisma.PrismaPromise<number>;
}

/**
 * The same SqlClient over the raw driver. Prisma's raw queries cost ~0.45 ms each in
 * bookkeeping; the request hot paths (authentication, single upsert, reads, lists) run
 * their composed Prisma.sql statements straight on the driver instead. Transactions stay
 * on Prisma.
 */
export function directSql(runner: Pick<SqlRunner, 'query'>): SqlClient {
  const compose = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) =>
    query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
  return {
    $queryRaw: ((query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => {
      const sql = compose(query, values);
      return runner.query(sql.text, sql.values).then((r) => r.rows);
    }) as SqlClient['$queryRaw'],
    $executeRaw: ((query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => {
      const sql = compose(query, values);
      return runner.query(sql.text, sql.values).then((r) => r.rowCount);
    }) as SqlClient['$executeRaw'],
  };
}
