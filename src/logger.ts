// The service's structured logger (JSON lines on stderr, so stdout stays for CLI output).
// What a line may carry is one rule, applied here to every line (src/logging/redaction.ts):
// errors through the safe serializer, messages scrubbed of quoted values, data fields censored.
import pino, { type DestinationStream, type Logger } from 'pino';
import { CENSOR, REDACTED_PATHS, safeError, scrubText } from './logging/redaction.js';
import { logLevelFrom, type LogLevel } from './config/env.js';

/** A logger writing lines of `level` and above to `destination` under the rule. */
export function createLogger(destination: DestinationStream, level: LogLevel): Logger {
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

/** The service's logger: to stderr, at the configured LOG_LEVEL. */
export const logger = createLogger(pino.destination(2), logLevelFrom());
