// The board app's log: @mondaycom/apps-sdk's Logger when the configuration came through the SDK
// (it writes what `mapps code:logs` shows on monday's hosting, and prints locally otherwise),
// else the service's own pino logger (tests build their configuration by hand).
import { logger } from '../../src/logger.js';

export interface BoardLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, options?: { error?: Error }): void;
}

const serviceLogger: BoardLogger = {
  info: (message) => logger.info({ component: 'board-app' }, message),
  warn: (message) => logger.warn({ component: 'board-app' }, message),
  error: (message, options) => logger.error({ component: 'board-app', err: options?.error }, message),
};

export function boardLogger(config: { logger?: BoardLogger | null }): BoardLogger {
  return config.logger ?? serviceLogger;
}

/** Never log tokens, keys or bodies: messages name ids and causes only. */
export function errorOf(error: unknown): Error | undefined {
  return error instanceof Error ? error : error === undefined ? undefined : new Error(String(error));
}
