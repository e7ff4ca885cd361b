// Configuration is read once and fails fast with the variable's name.
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/config/env.js';

describe('loadEnv', () => {
  it('applies defaults and reads SIMULATED_OUTCOMES as results or outcome objects', () => {
    const env = loadEnv({
      SIMULATED_OUTCOMES:
        '{"+14155550100":"converted","+14155550101":{"result":"callback_requested","nextAttemptInMinutes":5}}',
    });
    expect(env).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', REGION: 'us', DATA_DIR: './data' });
    expect(env.SIMULATED_OUTCOMES).toEqual({
      '+14155550100': { result: 'converted' },
      '+14155550101': { result: 'callback_requested', nextAttemptInMinutes: 5 },
    });
  });

  it.each([
    [{ SIMULATED_OUTCOMES: '{not json' }, 'SIMULATED_OUTCOMES'],
    [{ SIMULATED_OUTCOMES: '{"+1415":"teleported"}' }, 'SIMULATED_OUTCOMES'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ REGION: 'mars' }, 'REGION'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
    [{ TELEPHONY_WEBHOOK_SECRETS: 'short' }, 'TELEPHONY_WEBHOOK_SECRETS'],
    [{ DATABASE_READ_URL: 'postgres://replica/db' }, 'DATABASE_READ_URL needs DATABASE_URL'],
    [{ DATABASE_DIRECT_URL: 'postgres://primary/db' }, 'DATABASE_DIRECT_URL needs DATABASE_URL'],
  ])('refuses %o naming %s', (source, name) => {
    expect(() => loadEnv(source as NodeJS.ProcessEnv)).toThrow(name);
  });

  it('takes DATABASE_READ_URL and DATABASE_DIRECT_URL with DATABASE_URL', () => {
    const env = loadEnv({
      DATABASE_URL: 'postgres://pooler:6432/db',
      DATABASE_READ_URL: 'postgres://replica/db',
      DATABASE_DIRECT_URL: 'postgres://primary/db',
    });
    expect([env.DATABASE_READ_URL, env.DATABASE_DIRECT_URL]).toEqual([
      'postgres://replica/db',
      'postgres://primary/db',
    ]);
  });
});
