// The service's structured logger (JSON lines on stderr, so stdout stays for CLI output).
import pino from 'pino';

export const logger = pino({ level: process.env.LOG_LEVEL || 'info' }, pino.destination(2));
