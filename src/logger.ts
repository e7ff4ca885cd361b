// The service's structured logger (JSON lines on stderr, so stdout stays for CLI output).
// What a line may carry is one rule, applied here to every line (src/logging/redaction.ts):
// errors through the safe serializer, messages scrubbed of quoted values, data fields censored.
import pino, { type DestinationStream, type Logger } from 'pino';
import { CENSOR, REDACTED_PATHS, safeError, scrubText } from './logging/redaction.js';

/** A logger writing to `destination` under the rule; the service's own writes to stderr. */
export function createLogger(destination: DestinationStream, level = process.env.LOG_LEVEL || 'info'): Logger {
  return pino(
    {
      level,
      serializers: { err: safeError, error: safeError },
      redact: { paths: REDACTED_PATHS, censor: CENSOR },
      hooks: {
        // The message text (and any value formatted into it) is scrubbed like an error's message.
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg));
          return method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

export const logger = createLogger(pino.destination(2));
