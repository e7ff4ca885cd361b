// The logger's level comes from the validated configuration (LOG_LEVEL, pino's levels), read on
// its own so that the logger never fails on another variable.
import { describe, expect, it } from 'vitest';
import { loadEnv, logLevelFrom, LOG_LEVELS } from '../../src/config/env.js';
import { logger } from '../../src/logger.js';

describe('LOG_LEVEL', () => {
  it("is info when unset or empty, and any of pino's levels or silent otherwise", () => {
    expect(logLevelFrom({})).toBe('info');
    expect(logLevelFrom({ LOG_LEVEL: '' })).toBe('info');
    for (const level of LOG_LEVELS) expect(logLevelFrom({ LOG_LEVEL: level })).toBe(level);
    expect(loadEnv({ LOG_LEVEL: 'debug' }).LOG_LEVEL).toBe('debug');
  });

  it('refuses a level pino does not know, naming LOG_LEVEL, as loadEnv does', () => {
    expect(() => logLevelFrom({ LOG_LEVEL: 'verbose' })).toThrow(/Invalid configuration:\n {2}LOG_LEVEL: /);
    expect(() => loadEnv({ LOG_LEVEL: 'verbose' })).toThrow('LOG_LEVEL');
  });

  it('is read alone: another bad variable is left to whoever reads the configuration', () => {
    expect(logLevelFrom({ LOG_LEVEL: 'warn', PORT: 'eighty' })).toBe('warn');
  });

  it("sets the service logger's level (the tests run at warn: vitest.config.ts)", () => {
    expect(logger.level).toBe(logLevelFrom());
    expect(logger.level).toBe('warn');
  });
});
