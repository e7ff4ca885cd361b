// A first `contactline serve` on a brand-new embedded database whose port is taken: it must fail
// with one plain line and a non-zero exit, and create nothing that the next start would not show.
// The next start, on a free port, prints the demo account's key, password and user id (the
// only time they are shown), and they work. Real child processes, as a new user runs them.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../support/child-process.js';
import { openDatabase } from '../../src/db/database.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/contactline.js');

let dataDir: string;
let occupier: net.Server;
let server: ChildProcess | undefined;

function serveEnv(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
  };
  delete env.DATABASE_URL;
  return env;
}

beforeAll(async () => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'contactline-first-start-')), 'd2');
  occupier = net.createServer();
  occupier.listen(0, '127.0.0.1');
  await once(occupier, 'listening');
});

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGKILL');
    await once(server, 'exit');
  }
  await new Promise((resolve) => occupier.close(resolve));
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

describe('the first start of a brand-new embedded database', () => {
  it('fails in one line when its port is taken, and the next start shows the demo credentials, which work', async () => {
    const taken = (occupier.address() as net.AddressInfo).port;
    const failed = await runProcess(process.execPath, [BIN, 'serve'], { cwd: ROOT, env: serveEnv(taken) });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr.trimEnd().split('\n')).toEqual([
      `error: Cannot start the service: cannot listen on 127.0.0.1:${taken}: the port is in use by another process (stop it, or set PORT to a free port).`,
    ]);

    server = spawn(process.execPath, [BIN, 'serve'], {
      cwd: ROOT,
      env: serveEnv(0),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    server.stderr!.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      server!.stdout!.on('data', (d) => {
        stdout += d;
        if (/Contactline listening on .*\n/.test(stdout)) resolve();
      });
      server!.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    const field = (label: string) => {
      const match = stdout.match(new RegExp(`^ {2}${label}:\\s+(\\S+)$`, 'm'));
      if (!match) throw new Error(`no "${label}" in:\n${stdout}`);
      return match[1];
    };
    const apiKey = field('API key \\(shown once\\)');
    const password = field('Console password \\(shown once\\)');
    const userId = field('User id');
    const baseUrl = stdout.match(/Contactline listening on (http:\/\/\S+)/)![1];

    // The key works against the API.
    const contacts = await fetch(`${baseUrl}/api/v1/contacts`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(contacts.status).toBe(200);
    // The password signs the demo user in to the console.
    const signIn = await fetch(`${baseUrl}/console/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl },
      body: new URLSearchParams({ email: 'demo@example.com', password }).toString(),
      redirect: 'manual',
    });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/console/');

    server.kill('SIGTERM');
    const [code] = await once(server, 'exit');
    expect(code).toBe(0);

    // One demo account, its key the printed user's: the failed start created nothing.
    const db = await openDatabase({ dataDir });
    try {
      const users = await db.prisma.user.findMany({
        select: { id: true, email: true, apiKeys: { select: { lastFour: true } } },
      });
      expect(users).toEqual([{ id: userId, email: 'demo@example.com', apiKeys: [{ lastFour: apiKey.slice(-4) }] }]);
      expect(await db.prisma.account.count()).toBe(1);
    } finally {
      await db.close();
    }
  }, 240_000);
});
