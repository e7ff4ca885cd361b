// Voice agents: create one in the signed-in person's Account, or edit one of its agents (another
// Account's is not found). The form is read into the console's typed GraphQL input as it was
// typed; the domain's checks (createAccountAgent, updateAccountAgent and the working-hours
// schema) decide, and their refusals are shown next to the field or the day they name.
import type { Request, Response, Router } from 'express';
import { AGENT_STATUSES } from '../../domain/agents/agents.inputs.js';
import { WEEKDAYS, type Weekday } from '../../domain/calls/calling-hours.inputs.js';
import { asDomainError, type DomainError } from '../../domain/errors.js';
import { type OperationVariables, runOperation } from '../../graphql/execute.js';
import { ConsoleAgentOperations } from '../../graphql/operations/console-agents.js';
import { type ConsoleKit, formField, type Signed, send } from '../console-kit.js';
import { type AgentFormErrors, type AgentFormValues, AgentPage, NO_ERRORS, type SavedAgent } from '../pages/agent.js';
import { NotFoundPage } from '../pages/not-found.js';
import type { Windows } from '../pages/week.js';

type AgentInput = OperationVariables<typeof ConsoleAgentOperations.createAgent>['input'];
type StoredAgent = SavedAgent & {
  status: string;
  provider: string;
  providerAgentId?: string | null;
  providerPhoneNumber?: string | null;
  phoneNumber?: string | null;
  defaultLanguage: string;
  attemptLimit: number;
  retryDelayMinutes: number;
  callNewContactsImmediately: boolean;
  maxConcurrentCalls?: number | null;
};

/** The zones offered while typing one (the runtime's IANA names; the domain decides what it accepts). */
const TIMEZONES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone')];

/** A new agent's form: the domain's defaults, a working week of 09:00–17:00. */
function blankValues(): AgentFormValues {
  const weekday = [{ start: '09:00', end: '17:00' }];
  return {
    name: '',
    status: 'draft',
    provider: 'simulator',
    providerAgentId: '',
    providerPhoneNumber: '',
    phoneNumber: '',
    timezone: 'UTC',
    defaultLanguage: 'en-US',
    attemptLimit: '3',
    retryDelayMinutes: '60',
    callNewContactsImmediately: false,
    maxConcurrentCalls: '',
    hours: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [], sun: [] },
  };
}

/** An agent's form as stored. */
function storedValues(agent: StoredAgent): AgentFormValues {
  const hours = (agent.workingHours ?? {}) as Partial<Record<Weekday, Windows>>;
  return {
    name: agent.name,
    status: agent.status,
    provider: agent.provider,
    providerAgentId: agent.providerAgentId ?? '',
    providerPhoneNumber: agent.providerPhoneNumber ?? '',
    phoneNumber: agent.phoneNumber ?? '',
    timezone: agent.timezone,
    defaultLanguage: agent.defaultLanguage,
    attemptLimit: String(agent.attemptLimit),
    retryDelayMinutes: String(agent.retryDelayMinutes),
    callNewContactsImmediately: agent.callNewContactsImmediately,
    maxConcurrentCalls: agent.maxConcurrentCalls == null ? '' : String(agent.maxConcurrentCalls),
    hours: Object.fromEntries(WEEKDAYS.map((day) => [day, hours[day] ?? []])) as Record<Weekday, Windows>,
  };
}

const WINDOW_FIELD = /^(mon|tue|wed|thu|fri|sat|sun)\.(\d{1,3})\.(start|end)$/;

/** A browser's time ("09:00", or "09:00:00" from some) as HH:MM. */
const timeOf = (text: string) => text.trim().replace(/^(\d\d:\d\d):00(?:\.0+)?$/, '$1');

/**
 * Each day's windows as typed, in row order; a row with both times empty is no window. A time
 * input cannot say 24:00, so an end of 00:00 is the end of the day.
 */
function hoursOf(req: Request): Record<Weekday, Windows> {
  const rows = new Map<Weekday, Map<number, { start: string; end: string }>>(WEEKDAYS.map((day) => [day, new Map()]));
  for (const [key, value] of Object.entries(req.body ?? {})) {
    const match = WINDOW_FIELD.exec(key);
    if (!match || typeof value !== 'string') continue;
    const day = rows.get(match[1] as Weekday) as Map<number, { start: string; end: string }>;
    const index = Number(match[2]);
    const row = day.get(index) ?? { start: '', end: '' };
    row[match[3] as 'start' | 'end'] = timeOf(value);
    day.set(index, row);
  }
  return Object.fromEntries(
    WEEKDAYS.map((day) => {
      const windows = [...(rows.get(day) as Map<number, { start: string; end: string }>).entries()]
        .sort(([a], [b]) => a - b)
        .map(([, row]) => row)
        .filter((row) => row.start || row.end)
        .map((row) => ({ start: row.start, end: row.end === '00:00' ? '24:00' : row.end }));
      return [day, windows];
    }),
  ) as Record<Weekday, Windows>;
}

/** The form as typed. */
function valuesOf(req: Request): AgentFormValues {
  const field = (name: keyof AgentFormValues) => formField(req, name);
  return {
    name: field('name'),
    status: field('status'),
    provider: field('provider'),
    providerAgentId: field('providerAgentId'),
    providerPhoneNumber: field('providerPhoneNumber'),
    phoneNumber: field('phoneNumber'),
    timezone: field('timezone'),
    defaultLanguage: field('defaultLanguage'),
    attemptLimit: field('attemptLimit'),
    retryDelayMinutes: field('retryDelayMinutes'),
    callNewContactsImmediately: field('callNewContactsImmediately') !== '',
    maxConcurrentCalls: field('maxConcurrentCalls'),
    hours: hoursOf(req),
  };
}

/** GraphQL's Int: a number past it is sent as its bound, for the domain to say it is too big or too small. */
const INT_BOUND = 2 ** 31 - 1;

/**
 * The typed GraphQL input of the form, or what the form itself cannot send: a number that is
 * not a whole number, a status that is not one (the input's types are GraphQL's; the domain
 * checks the rest).
 */
function inputOf(values: AgentFormValues): { input: AgentInput } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const whole = (name: 'attemptLimit' | 'retryDelayMinutes' | 'maxConcurrentCalls', optional = false) => {
    const text = values[name].trim();
    if (text === '' && optional) return null;
    if (!/^[-+]?\d+$/.test(text)) {
      errors[name] = text === '' ? 'enter a whole number' : `"${text}" is not a whole number`;
      return 0;
    }
    return Math.max(-INT_BOUND, Math.min(INT_BOUND, Number(text)));
  };
  const optionalText = (text: string) => text.trim() || null;
  const status = AGENT_STATUSES.find((known) => known === values.status);
  if (!status) errors.status = `choose one of ${AGENT_STATUSES.join(', ')}`;
  const input: AgentInput = {
    name: values.name,
    status,
    provider: values.provider,
    providerAgentId: optionalText(values.providerAgentId),
    providerPhoneNumber: optionalText(values.providerPhoneNumber),
    phoneNumber: optionalText(values.phoneNumber),
    timezone: values.timezone.trim(),
    defaultLanguage: values.defaultLanguage,
    attemptLimit: whole('attemptLimit'),
    retryDelayMinutes: whole('retryDelayMinutes'),
    callNewContactsImmediately: values.callNewContactsImmediately,
    maxConcurrentCalls: whole('maxConcurrentCalls', true),
    workingHours: Object.fromEntries(
      WEEKDAYS.filter((day) => values.hours[day].length).map((d) => [d, values.hours[d]]),
    ),
  };
  return Object.keys(errors).length ? { errors } : { input };
}

const FORM_FIELDS = new Set<string>([
  'name',
  'status',
  'provider',
  'providerAgentId',
  'providerPhoneNumber',
  'phoneNumber',
  'timezone',
  'defaultLanguage',
  'attemptLimit',
  'retryDelayMinutes',
  'callNewContactsImmediately',
  'maxConcurrentCalls',
  'workingHours',
]);

const DAY_ISSUE = /^workingHours\.(mon|tue|wed|thu|fri|sat|sun)(?:\[(\d+)\](?:\.(start|end))?)?/;

/** The domain's refusal by field, and a working-hours problem by the day (and window) its path names. */
function agentFormErrors(failure: DomainError): AgentFormErrors {
  const issues = (failure.details.issues ?? []) as Array<{ path?: unknown; message?: unknown }>;
  const out: AgentFormErrors = { fields: {}, days: {} };
  const general: string[] = [];
  for (const issue of issues) {
    const path = typeof issue.path === 'string' ? issue.path : '';
    const message = typeof issue.message === 'string' ? issue.message : String(issue.message);
    const day = DAY_ISSUE.exec(path);
    if (day) {
      const entry = out.days[day[1] as Weekday] ?? { messages: [], rows: [] };
      out.days[day[1] as Weekday] = entry;
      if (day[2] === undefined) entry.messages.push(message);
      else {
        const row = Number(day[2]);
        const which = day[3] === 'start' ? ' from' : day[3] === 'end' ? ' to' : '';
        entry.messages.push(`window ${row + 1}${which}: ${message}`);
        entry.rows.push(row);
      }
      continue;
    }
    const field = path.split(/[.[]/)[0];
    if (FORM_FIELDS.has(field)) out.fields[field] ??= message;
    else general.push(path ? `${path}: ${message}` : message);
  }
  if (general.length) out.form = general.join('; ');
  if (issues.length === 0) out.form = failure.message;
  return out;
}

export function agentRoutes(router: Router, { withSession, viewerOf }: ConsoleKit): void {
  function formPage(
    res: Response,
    signed: Signed,
    values: AgentFormValues,
    options: { agent?: SavedAgent; errors?: AgentFormErrors; status?: number } = {},
  ) {
    const { agent, errors, status = 200 } = options;
    send(res, status, AgentPage({ viewer: viewerOf(signed), agent, values, errors, timezones: TIMEZONES }));
  }

  function notFound(res: Response, signed: Signed) {
    send(
      res,
      404,
      NotFoundPage({ viewer: viewerOf(signed), what: 'No such agent in your Account.', back: '/console/workflows' }),
    );
  }

  /** One of the Account's agents, or null (another Account's, or no such id). */
  async function agentOf(signed: Signed, id: string): Promise<StoredAgent | null> {
    try {
      const { accountAgent } = await runOperation(signed.ctx, ConsoleAgentOperations.agent, { id });
      return (accountAgent as StoredAgent | null) ?? null;
    } catch (error) {
      // An id that is not a UUID is no agent either.
      if (asDomainError(error)?.code === 'bad_request') return null;
      throw error;
    }
  }

  /** Runs the write; on a refusal, the form again with what was typed and the domain's errors. */
  async function save(
    req: Request,
    res: Response,
    signed: Signed,
    agent: StoredAgent | undefined,
    write: (input: AgentInput) => Promise<{ id: string }>,
  ) {
    const values = valuesOf(req);
    const read = inputOf(values);
    if ('errors' in read) {
      formPage(res, signed, values, { agent, errors: { ...NO_ERRORS, fields: read.errors }, status: 400 });
      return;
    }
    try {
      const saved = await write(read.input);
      res.redirect(303, `/console/workflows?${agent ? 'saved' : 'created'}=${saved.id}`);
    } catch (error) {
      const failure = asDomainError(error);
      if (failure?.code === 'not_found') return notFound(res, signed);
      if (failure?.code !== 'bad_request' && failure?.code !== 'conflict') throw error;
      formPage(res, signed, values, { agent, errors: agentFormErrors(failure), status: failure.status });
    }
  }

  router.get(
    '/agents/new',
    withSession(async (_req, res, signed) => formPage(res, signed, blankValues())),
  );

  router.post(
    '/agents/new',
    withSession(async (req, res, signed) =>
      save(req, res, signed, undefined, async (input) => {
        const { createAccountAgent } = await runOperation(signed.ctx, ConsoleAgentOperations.createAgent, { input });
        return createAccountAgent;
      }),
    ),
  );

  router.get(
    '/agents/:id',
    withSession(async (req, res, signed) => {
      const agent = await agentOf(signed, String(req.params.id));
      if (!agent) return notFound(res, signed);
      formPage(res, signed, storedValues(agent), { agent });
    }),
  );

  router.post(
    '/agents/:id',
    withSession(async (req, res, signed) => {
      const agent = await agentOf(signed, String(req.params.id));
      if (!agent) return notFound(res, signed);
      await save(req, res, signed, agent, async (input) => {
        const { updateAccountAgent } = await runOperation(signed.ctx, ConsoleAgentOperations.updateAgent, {
          id: agent.id,
          input,
        });
        return updateAccountAgent;
      });
    }),
  );
}
