// The least an HTTP service answering the capacity bench's sequential reads must do: Node's own
// http server and the raw `pg` driver (a pool of 16) in a process of its own, running the very
// statements the raw baseline runs, and answering their rows as JSON (JSON.stringify) or CSV
// (csv-stringify) with no key, no validation, no formatting, no log. Its p50 is the floor under
// the service's: what a request costs in one more process on this machine (two more socket
// hops, the scheduler sharing two cores among client, server and database), which the raw driver
// in the benchmark's own process never pays. Started by bench/capacity.ts, which sends it the
// statements and reads back its port.
import http from 'node:http';
import { stringify } from 'csv-stringify/sync';
import pg from 'pg';

export interface BareServerStatements {
  /** By id: `$1` the account, `$2` the id (the path's last segment). */
  byId: string;
  accountId: string;
  list: { text: string; values: unknown[] };
}

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 16 });

function answer(res: http.ServerResponse, type: string, body: string) {
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

process.once('message', (statements: BareServerStatements) => {
  const server = http.createServer(async (req, res) => {
    try {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/list') {
        const { rows } = await pool.query(statements.list.text, statements.list.values);
        answer(res, 'application/json; charset=utf-8', JSON.stringify({ data: rows }));
      } else if (path === '/csv') {
        const { rows } = await pool.query(statements.list.text, statements.list.values);
        answer(res, 'text/csv; charset=utf-8', stringify(rows, { header: true }));
      } else {
        const { rows } = await pool.query(statements.byId, [
          statements.accountId,
          path.slice(path.lastIndexOf('/') + 1),
        ]);
        if (rows.length === 0) res.writeHead(404).end();
        else answer(res, 'application/json; charset=utf-8', JSON.stringify(rows[0]));
      }
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
});
process.once('disconnect', () => process.exit(0));
