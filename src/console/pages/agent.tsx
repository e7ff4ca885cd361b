/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// One voice agent, new or to edit: its name and status, who runs its calls (the provider and
// its references), its time zone and language, how often it tries, and its working week. The
// week is plain time inputs, a row per window of each day and an empty row to add one, so it
// works without a script; console.js adds Add and Remove buttons and redraws each day's bar as
// the times change. Every rule is the domain's: a refusal comes back next to the field, or the
// day, it names.
import { WEEKDAYS, type Weekday } from '../../domain/calls/calling-hours.inputs.js';
import { AGENT_LANGUAGES, AGENT_STATUSES, VOICE_PROVIDERS } from '../../domain/agents/agents.inputs.js';
import { FieldError, FormAlert, Layout, type Viewer } from './layout.js';
import { DAY_NAMES, DayBar, WeekGrid, type Windows } from './week.js';

/** The form's values as the person typed them (or as stored, on an agent's page); times as the domain takes them. */
export interface AgentFormValues {
  name: string;
  status: string;
  provider: string;
  providerAgentId: string;
  providerPhoneNumber: string;
  phoneNumber: string;
  timezone: string;
  defaultLanguage: string;
  attemptLimit: string;
  retryDelayMinutes: string;
  callNewContactsImmediately: boolean;
  maxConcurrentCalls: string;
  hours: Record<Weekday, Windows>;
}

/** What was refused: by field, by day (with the rows it names), or about the whole form. */
export interface AgentFormErrors {
  fields: Record<string, string>;
  days: Partial<Record<Weekday, { messages: string[]; rows: number[] }>>;
  form?: string;
}

export const NO_ERRORS: AgentFormErrors = { fields: {}, days: {} };

/** The agent as saved (its page): its week is drawn above the form. */
export interface SavedAgent {
  id: string;
  name: string;
  timezone: string;
  workingHours: unknown;
}

/** A time input shows no "24:00": the end of the day is 00:00 there (the route reads it back as 24:00). */
const endAsTyped = (end: string) => (end === '24:00' ? '00:00' : end);

function described(...ids: Array<string | false | undefined>): string | undefined {
  const list = ids.filter(Boolean);
  return list.length ? list.join(' ') : undefined;
}

function TextField(props: {
  name: keyof AgentFormValues;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  type?: 'number' | 'tel';
  required?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  list?: string;
  placeholder?: string;
}) {
  const { name, label, value, error, hint, ...rest } = props;
  // (Preact types an input with a `list` as text-like only; `type` and `list` never come together here.)
  const attributes = rest as Record<string, unknown>;
  return (
    <div class="field">
      <label for={name}>{label}</label>
      <input
        id={name}
        name={name}
        value={value}
        {...attributes}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described(hint && `${name}-hint`, error && `${name}-error`)}
      />
      {hint && (
        <p class="hint" id={`${name}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

function SelectField(props: {
  name: keyof AgentFormValues;
  label: string;
  value: string;
  options: readonly string[];
  error?: string;
  hint?: string;
}) {
  const options = props.options.includes(props.value) || !props.value ? props.options : [props.value, ...props.options];
  return (
    <div class="field">
      <label for={props.name}>{props.label}</label>
      <select
        id={props.name}
        name={props.name}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={described(props.hint && `${props.name}-hint`, props.error && `${props.name}-error`)}
      >
        {options.map((option) => (
          <option key={option} value={option} selected={option === props.value}>
            {option}
          </option>
        ))}
      </select>
      {props.hint && (
        <p class="hint" id={`${props.name}-hint`}>
          {props.hint}
        </p>
      )}
      <FieldError id={`${props.name}-error`} message={props.error} />
    </div>
  );
}

/** One day of the week: its bar, a row per window (and an empty one to add a window), its errors. */
function DayEditor(props: { day: Weekday; windows: Windows; error?: { messages: string[]; rows: number[] } }) {
  const { day, error } = props;
  const rows = [...props.windows, { start: '', end: '' }];
  const errorId = `hours-${day}-error`;
  return (
    <fieldset class="day" data-day={day} aria-describedby={error ? errorId : undefined}>
      <legend>{DAY_NAMES[day]}</legend>
      <DayBar windows={props.windows} id={`hours-${day}-bar`} />
      <div class="window-rows">
        {rows.map((w, i) => {
          const invalid = error?.rows.includes(i) ? 'true' : undefined;
          const id = `hours-${day}-${i}`;
          return (
            <div key={i} class="window-row" data-window-row>
              <label for={`${id}-start`}>
                <span class="visually-hidden">Window {i + 1} </span>from
              </label>
              <input
                type="time"
                id={`${id}-start`}
                name={`${day}.${i}.start`}
                value={w.start}
                aria-invalid={invalid}
                aria-describedby={invalid && errorId}
              />
              <label for={`${id}-end`}>
                <span class="visually-hidden">Window {i + 1} </span>to
              </label>
              <input
                type="time"
                id={`${id}-end`}
                name={`${day}.${i}.end`}
                value={endAsTyped(w.end)}
                aria-invalid={invalid}
                aria-describedby={invalid && errorId}
              />
              <button type="button" class="link" data-remove-window hidden>
                Remove
                <span class="visually-hidden">
                  {' '}
                  window {i + 1} of {DAY_NAMES[day]}
                </span>
              </button>
            </div>
          );
        })}
      </div>
      <button type="button" class="link" data-add-window hidden>
        Add a window<span class="visually-hidden"> on {DAY_NAMES[day]}</span>
      </button>
      <FieldError id={errorId} message={error?.messages.join('; ')} />
    </fieldset>
  );
}

export function AgentPage(props: {
  viewer: Viewer;
  /** The agent as saved, on its own page; absent for a new agent. */
  agent?: SavedAgent;
  values: AgentFormValues;
  errors?: AgentFormErrors;
  /** The time zones offered as the zone is typed. */
  timezones: readonly string[];
}) {
  const { values, agent } = props;
  const errors = props.errors ?? NO_ERRORS;
  const e = errors.fields;
  const action = agent ? `/console/agents/${agent.id}` : '/console/agents/new';
  return (
    <Layout title={agent ? `Edit agent ${agent.name}` : 'New agent'} viewer={props.viewer} current="/console/workflows">
      <p>
        <a href="/console/workflows">Back to agents and workflows</a>
      </p>
      <FormAlert message={errors.form} />
      {agent && (
        <section class="card" aria-labelledby="saved-week-title">
          <h2 id="saved-week-title">Its week as saved</h2>
          <WeekGrid agent={agent} />
        </section>
      )}
      <form method="post" action={action} class="agent-form" data-week-editor>
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        <fieldset class="card">
          <legend>The agent</legend>
          <TextField name="name" label="Name" value={values.name} error={e.name} required maxLength={200} />
          <SelectField name="status" label="Status" value={values.status} options={AGENT_STATUSES} error={e.status} />
          <TextField
            name="timezone"
            label="Time zone"
            value={values.timezone}
            error={e.timezone}
            list="timezones"
            required
            maxLength={64}
            hint="An IANA time zone (e.g. Europe/Paris, America/New_York). The working hours below apply on each contact's own clock (its time zone); this zone is used only for a contact without one."
          />
          <datalist id="timezones">
            {props.timezones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
          <SelectField
            name="defaultLanguage"
            label="Default language"
            value={values.defaultLanguage}
            options={AGENT_LANGUAGES}
            error={e.defaultLanguage}
            hint="What the agent speaks to a contact whose language is not known."
          />
        </fieldset>
        <fieldset class="card">
          <legend>Calling</legend>
          <TextField
            name="attemptLimit"
            label="Attempts per contact, at most"
            type="number"
            min={1}
            max={50}
            required
            value={values.attemptLimit}
            error={e.attemptLimit}
          />
          <TextField
            name="retryDelayMinutes"
            label="Minutes between attempts"
            type="number"
            min={1}
            max={7 * 24 * 60}
            required
            value={values.retryDelayMinutes}
            error={e.retryDelayMinutes}
          />
          <TextField
            name="maxConcurrentCalls"
            label="Calls at once, at most"
            type="number"
            min={1}
            max={10_000}
            value={values.maxConcurrentCalls}
            error={e.maxConcurrentCalls}
            hint="Leave empty for the provider's default."
          />
          <div class="field check">
            <input
              type="checkbox"
              id="callNewContactsImmediately"
              name="callNewContactsImmediately"
              value="true"
              checked={values.callNewContactsImmediately}
              aria-describedby="callNewContactsImmediately-hint"
            />
            <label for="callNewContactsImmediately">Call new contacts immediately</label>
            <p class="hint" id="callNewContactsImmediately-hint">
              A new enrollment's first call is placed at once, even outside the working hours.
            </p>
            <FieldError id="callNewContactsImmediately-error" message={e.callNewContactsImmediately} />
          </div>
        </fieldset>
        <fieldset class="card">
          <legend>Who places the calls</legend>
          <SelectField
            name="provider"
            label="Provider"
            value={values.provider}
            options={VOICE_PROVIDERS}
            error={e.provider}
            hint="simulator: no telephony account, for trying things out. vapi and retell: the Account's provider credentials, and the two references below."
          />
          <TextField
            name="providerAgentId"
            label="Provider's agent"
            value={values.providerAgentId}
            error={e.providerAgentId}
            maxLength={200}
            hint="Vapi: the assistant id. Retell: the agent id."
          />
          <TextField
            name="providerPhoneNumber"
            label="Provider's number to call from"
            value={values.providerPhoneNumber}
            error={e.providerPhoneNumber}
            maxLength={200}
            hint="Vapi: the phone number id. Retell: the from-number in international format (+14155550100)."
          />
          <TextField
            name="phoneNumber"
            label="The agent's own number (inbound)"
            type="tel"
            value={values.phoneNumber}
            error={e.phoneNumber}
            maxLength={64}
            hint="Optional, in international format: a call to it finds or creates the caller in this Account."
          />
        </fieldset>
        <fieldset class="card week-editor" aria-describedby="hours-hint">
          <legend>Working hours</legend>
          <p class="hint" id="hours-hint">
            Per day, the windows in which the agent calls, in each contact's time zone (the agent's time zone above for
            a contact without one). An end of 00:00 is midnight, the end of the day. Windows may touch but not overlap.
            Leave both times of a row empty to remove it; a day without windows has no calls.
          </p>
          <FieldError id="workingHours-error" message={e.workingHours} />
          {WEEKDAYS.map((day) => (
            <DayEditor key={day} day={day} windows={values.hours[day]} error={errors.days[day]} />
          ))}
        </fieldset>
        <button type="submit">{agent ? 'Save the agent' : 'Create the agent'}</button>
      </form>
    </Layout>
  );
}
