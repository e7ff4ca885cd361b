// The one rule for what a log line may carry: ids, codes, names of tables and fields, counts,
// durations; never contact data (phones, names, custom fields, external ids, search terms) nor
// secrets (keys, tokens). Three parts, all applied by the logger itself (src/logger.ts), so no
// call site has to remember them:
//   - `safeError`, the serializer of every logged error: type, code, message and stack, plus the
//     database's names (table, column, constraint), and its `cause` by the same rule. Nothing
//     else is copied: a PGlite error carries the statement's `query` and `params` (a bulk
//     import's 1,000 phones and names), a PostgreSQL error's `detail` echoes key values
//     ("Key (phone)=(+14155550100) already exists"), its `hint`, `where` and `internalQuery`
//     may hold values too, and Prisma's validation errors print the call's arguments;
//   - `scrubText`, applied to every message (the log line's and each error's, its stack
//     included): quoted literals, key values and phone-like or e-mail-like text are masked,
//     since PostgreSQL's own messages quote the value they refused ('invalid input syntax for
//     type uuid: "…"'). The message of an exception raised in SQL (RAISE, SQL state P0…) is
//     free text that may interpolate values unquoted: it is not logged at all;
//   - `REDACTED_PATHS`, pino's redaction of fields that would carry data if someone logged them.

/** Fields of a log object that are censored wherever they appear (at the top or one level down). */
const SENSITIVE_KEYS = [
  'phone',
  'firstName',
  'lastName',
  'fullName',
  'customFields',
  'externalId',
  'searchTerm',
  'email',
  'authorization',
  'apiKey',
  'token',
  'secret',
  'password',
  'body',
  'params',
  'parameters',
  'query',
  'headers',
];
export const REDACTED_PATHS = SENSITIVE_KEYS.flatMap((key) => [key, `*.${key}`]);
export const CENSOR = '[redacted]';

/** Error fields that hold names or codes only, copied as they are (strings and numbers). */
const SAFE_FIELDS = [
  'code',
  'errno',
  'severity',
  'table',
  'column',
  'constraint',
  'schema',
  'dataType',
  'routine',
  'status',
  'statusCode',
  'kind',
  'originalCode',
  'clientVersion',
  'type',
];

const MAX_DEPTH = 3;

/** A logged error by the rule above; anything that is not an Error is described, not copied. */
export function safeError(error: unknown, depth = 0): Record<string, unknown> | string | undefined {
  if (error === undefined || error === null) return undefined;
  if (typeof error === 'string') return scrubText(error);
  if (typeof error !== 'object') return typeof error;
  const source = error as Record<string, unknown>;
  const out: Record<string, unknown> = { type: errorType(error) };
  for (const field of SAFE_FIELDS) {
    const value = source[field];
    if (field !== 'type' && (typeof value === 'string' || typeof value === 'number'))
      out[field] = typeof value === 'string' ? scrubText(value) : value;
  }
  const raised = raisedSqlState(source);
  const message = raised
    ? `the database raised ${raised} (its message is not logged: a message written in SQL may quote any value)`
    : typeof source.message === 'string'
      ? messageOf(error, source.message)
      : undefined;
  if (message !== undefined) out.message = message;
  if (typeof source.stack === 'string') out.stack = stackOf(source.stack, source.message, message);
  // Prisma's known errors: the model and the fields involved are names; the driver's error
  // behind them (meta.driverAdapterError) follows the rule as a cause.
  const meta = source.meta as Record<string, unknown> | undefined;
  if (meta && typeof meta === 'object') {
    const kept: Record<string, unknown> = {};
    if (typeof meta.modelName === 'string') kept.modelName = meta.modelName;
    if (Array.isArray(meta.target) && meta.target.every((t) => typeof t === 'string')) kept.target = meta.target;
    else if (typeof meta.target === 'string') kept.target = meta.target;
    if (Object.keys(kept).length) out.meta = kept;
    if (meta.driverAdapterError && depth < MAX_DEPTH) out.driverError = safeError(meta.driverAdapterError, depth + 1);
  }
  if (source.cause !== undefined && depth < MAX_DEPTH) out.cause = safeError(source.cause, depth + 1);
  if (Array.isArray(source.errors) && depth < MAX_DEPTH)
    out.errors = source.errors.slice(0, 5).map((e) => safeError(e, depth + 1));
  return out;
}

/**
 * The SQL state of an exception raised in SQL (RAISE: class P0), from a driver's error or
 * Prisma's wrapping of it. Its message is free text written by whoever wrote the function or
 * trigger, which may interpolate any value unquoted, so it cannot be scrubbed: it is dropped.
 */
function raisedSqlState(source: Record<string, unknown>): string | undefined {
  const adapterCause =
    (source.meta as { driverAdapterError?: { cause?: Record<string, unknown> } } | undefined)?.driverAdapterError
      ?.cause ?? undefined;
  const candidates = [
    source.code,
    source.originalCode,
    adapterCause?.originalCode,
    (source.cause as Record<string, unknown> | undefined)?.originalCode,
  ];
  const prismaRaw = typeof source.message === 'string' ? /Code: `(P0\w{3})`/.exec(source.message)?.[1] : undefined;
  return [...candidates, prismaRaw].find(
    (code): code is string => typeof code === 'string' && /^P0[0-9A-Z]{3}$/.test(code),
  );
}

function errorType(error: object): string {
  const name = (error as { name?: unknown }).name;
  const constructorName = error.constructor?.name;
  return typeof name === 'string' && name !== 'Error'
    ? name
    : constructorName && constructorName !== 'Object'
      ? constructorName
      : 'Error';
}

/**
 * Prisma's validation errors print the whole call with its arguments between the first line
 * ("Invalid `prisma.contact.create()` invocation") and the last one (what was wrong); only
 * those two are kept.
 */
function messageOf(error: object, message: string): string {
  if (errorType(error) === 'PrismaClientValidationError') {
    const lines = message
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    return scrubText(lines.length > 1 ? `${lines[0]} … ${lines[lines.length - 1]}` : message);
  }
  return scrubText(message);
}

/** The stack's frames, under the safe message: the stack repeats the raw message at its top. */
function stackOf(stack: string, rawMessage: unknown, safeMessage: string | undefined): string {
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  const head = stack.split('\n')[0] ?? '';
  const title =
    typeof rawMessage === 'string' && rawMessage && safeMessage !== undefined
      ? head.replace(rawMessage.split('\n')[0], safeMessage.split('\n')[0])
      : scrubText(head);
  return [scrubText(title), ...frames.slice(0, 20)].join('\n');
}

const QUOTED = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|“[^”]*”/g;
/** PostgreSQL's key detail: `Key ("accountId", "dedupKey")=(…, +1415…)`: the values after `=`. */
const KEY_VALUES = /\)=\([^)]*\)/g;
/** Seven or more digits with the separators phones are written with, not inside an id. */
const PHONE_LIKE = /(?<![\w-])\+?\(?\d(?:[\s().-]{0,2}\d){6,}(?![\w-])/g;
const EMAIL_LIKE = /[^\s@"'<>()]+@[^\s@"'<>()]+\.[A-Za-z]{2,}/g;

/** Masks the values a message may quote; names in backticks (Prisma's) and ids are kept. */
export function scrubText(text: string): string {
  return text
    .replace(KEY_VALUES, ')=([redacted])')
    .replace(QUOTED, (quoted) => `${quoted[0]}…${quoted[quoted.length - 1]}`)
    .replace(EMAIL_LIKE, '[email]')
    .replace(PHONE_LIKE, '[number]');
}
