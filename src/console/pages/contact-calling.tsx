/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// A contact's "Calling" section: the dialer's own decision (the domain's contactDialing): whether
// it may call the contact now, when next, every reason it may not with the jurisdiction, source
// and end of each, the zones and jurisdictions it used, the calls counted against each cap and
// the consent it relied on; then the contact's consents, a Revoke action per scope, and a form
// to record one. Every check is the domain's; a refused consent is shown next to its field.
import { CONSENT_KINDS } from '../../domain/calling-rules/calling-rule.types.js';
import { CONSENT_METHODS } from '../../domain/calling-rules/calling-rules.inputs.js';
import { capWords, jurisdictionName } from './calling-words.js';
import { FieldError, FormAlert } from './layout.js';
import { Time, ZonedTime } from './time.js';

/** The decision as the domain's contactDialing answers it. */
export interface DialingView {
  contactId: string;
  callableNow: boolean;
  nextCallableAt: string | null;
  reasons: Array<{
    code: string;
    message: string;
    jurisdiction: string | null;
    source: string | null;
    ruleId: string | null;
    until: string | null;
  }>;
  timeZones: string[];
  jurisdictions: string[];
  ruleSetVersion: string;
  purpose: string;
  ruleIds: string[];
  attempts: Array<{
    ruleId: string | null;
    jurisdiction: string | null;
    max: number;
    periodHours: number;
    counted: number;
    source: string | null;
  }>;
  consentUsed: { id: string; kind: string } | null;
  enrollment: {
    workflowId: string;
    agentId: string | null;
    attempts: number;
    dueAt: string | null;
    immediate: boolean;
  } | null;
}

export interface ConsentRow {
  id: string;
  kind: string;
  workflowId: string | null;
  method: string;
  evidence: string | null;
  obtainedAt: string;
  createdAt: string;
  revokedAt: string | null;
  revokedBy: string | null;
  active: boolean;
}

/** The consent form as typed: `scope` is '' (every call of the Account) or a workflow's id. */
export interface ConsentFormValues {
  kind: string;
  scope: string;
  method: string;
  evidence: string;
  /** A datetime-local value (YYYY-MM-DDTHH:MM) on the clock of `obtainedAtZone`. */
  obtainedAt: string;
  obtainedAtZone: string;
}

const KIND_WORDS: Record<string, string> = {
  express_written: 'Prior express written consent',
  express: 'Prior express consent',
};
/** The kinds as the form offers them (short: a select is as wide as its longest option). */
const KIND_CHOICES: Record<string, string> = {
  express_written: 'Express written (signed, e-signature too)',
  express: 'Express (given, not signed)',
};
const METHOD_WORDS: Record<string, string> = {
  web_form: 'Web form',
  recorded_call: 'Recorded call',
  paper: 'Paper',
  import: 'Import',
  other: 'Other',
};
const REVOKED_BY: Record<string, string> = {
  api: 'through the API or the console',
  do_not_call_result: 'the contact asked not to be called on a call',
  erasure: 'the contact was erased',
  block_list: 'the phone was put on the block list',
};

const words = (table: Record<string, string>, value: string) => table[value] ?? value;

/** The decision's headline facts. */
function Decision(props: { dialing: DialingView; workflowNames: Record<string, string> }) {
  const d = props.dialing;
  const lasting = d.reasons.some((r) => r.until === null);
  const zone = d.timeZones.length === 1 ? d.timeZones[0] : null;
  const enrollment = d.enrollment;
  return (
    <div class="card">
      <p class={d.callableNow ? 'verdict ok' : 'verdict no'} id="callable">
        {d.callableNow ? 'Callable now' : 'Not callable now'}
      </p>
      <dl class="fields">
        <dt>Next callable</dt>
        <dd id="next-callable">
          {d.nextCallableAt ? (
            <>
              <Time at={d.nextCallableAt} />
              {zone && (
                <span class="hint">
                  {' '}
                  (the contact’s time: <ZonedTime at={d.nextCallableAt} zone={zone} />)
                </span>
              )}
            </>
          ) : lasting ? (
            'not until someone acts on a reason below'
          ) : (
            'not within the next 45 days'
          )}
        </dd>
        <dt>Decided for</dt>
        <dd>
          {enrollment
            ? `the enrollment in ${props.workflowNames[enrollment.workflowId] ?? enrollment.workflowId} (${enrollment.attempts} call${enrollment.attempts === 1 ? '' : 's'} made${enrollment.immediate ? '; a first call is placed at once, outside the agent’s working hours but never outside the law' : ''})`
            : 'no active enrollment: the law, the calling policy and the consents alone'}
        </dd>
        <dt>Purpose</dt>
        <dd>{d.purpose} (the Account’s calling policy, on Settings)</dd>
        <dt>Time zones</dt>
        <dd>{d.timeZones.length ? d.timeZones.join(', ') : 'none known'}</dd>
        <dt>Jurisdictions</dt>
        <dd>{d.jurisdictions.length ? d.jurisdictions.map(jurisdictionName).join(', ') : 'none known'}</dd>
        <dt>Consent used</dt>
        <dd>{d.consentUsed ? words(KIND_WORDS, d.consentUsed.kind) : 'none'}</dd>
        <dt>Rules applied</dt>
        <dd>
          {d.ruleIds.length === 0 ? (
            `none (rule set ${d.ruleSetVersion})`
          ) : (
            <details>
              <summary>
                {d.ruleIds.length} rule{d.ruleIds.length === 1 ? '' : 's'} of rule set {d.ruleSetVersion}
              </summary>
              <p>{d.ruleIds.join(', ')}</p>
            </details>
          )}
        </dd>
      </dl>
    </div>
  );
}

function Reasons(props: { reasons: DialingView['reasons'] }) {
  if (props.reasons.length === 0) return null;
  return (
    <>
      <h3 id="reasons-title">Why not now</h3>
      <div class="table-wrap stacked">
        <table class="stacked wrap" aria-labelledby="reasons-title">
          <thead>
            <tr>
              <th scope="col">Reason</th>
              <th scope="col">Jurisdiction</th>
              <th scope="col">Source</th>
              <th scope="col">Until</th>
            </tr>
          </thead>
          <tbody>
            {props.reasons.map((r, index) => (
              <tr key={`${r.code}-${r.ruleId ?? index}`} data-reason={r.code}>
                <th scope="row">
                  {r.message} <code>{r.code}</code>
                </th>
                <td data-label="Jurisdiction">
                  {r.jurisdiction ? jurisdictionName(r.jurisdiction) : 'the Account or the contact'}
                </td>
                <td data-label="Source" class="why">
                  {r.source ?? '—'}
                </td>
                <td data-label="Until">{r.until ? <Time at={r.until} /> : 'until someone acts'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Attempts(props: { attempts: DialingView['attempts'] }) {
  if (props.attempts.length === 0) return null;
  return (
    <>
      <h3 id="attempts-title">Calls counted against caps</h3>
      <div class="table-wrap stacked">
        <table class="stacked wrap" aria-labelledby="attempts-title">
          <thead>
            <tr>
              <th scope="col">Cap</th>
              <th scope="col">Calls counted</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {props.attempts.map((a) => (
              <tr key={a.ruleId ?? 'account'}>
                <th scope="row">
                  {a.jurisdiction ? jurisdictionName(a.jurisdiction) : 'The Account’s own'}: {capWords(a)}
                </th>
                <td data-label="Calls counted">{`${a.counted} of ${a.max}`}</td>
                <td data-label="Source" class="why">
                  {a.source ?? 'the Account’s calling policy'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Consents(props: {
  contactId: string;
  csrf: string;
  consents: ConsentRow[];
  workflowNames: Record<string, string>;
}) {
  const scopeWords = (workflowId: string | null) =>
    workflowId === null ? 'every call of the Account' : `workflow “${props.workflowNames[workflowId] ?? workflowId}”`;
  const liveScopes = [...new Set(props.consents.filter((c) => c.active).map((c) => c.workflowId ?? ''))];
  return (
    <>
      <h3 id="consents-title">Consents</h3>
      {props.consents.length === 0 ? (
        <p class="empty">No consent recorded. Record one below when the contact gives it.</p>
      ) : (
        <div class="table-wrap stacked">
          <table class="stacked wrap" aria-labelledby="consents-title">
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Covers</th>
                <th scope="col">Method</th>
                <th scope="col">Evidence</th>
                <th scope="col">Obtained</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {props.consents.map((c) => (
                <tr key={c.id} data-consent={c.id}>
                  <th scope="row">{words(KIND_WORDS, c.kind)}</th>
                  <td data-label="Covers">{scopeWords(c.workflowId)}</td>
                  <td data-label="Method">{words(METHOD_WORDS, c.method)}</td>
                  <td data-label="Evidence" class="why">
                    {c.evidence ?? '—'}
                  </td>
                  <td data-label="Obtained">
                    <Time at={c.obtainedAt} />
                  </td>
                  <td data-label="Status">
                    {c.active ? (
                      'active'
                    ) : (
                      <>
                        revoked <Time at={c.revokedAt ?? c.createdAt} />
                        {c.revokedBy ? ` (${words(REVOKED_BY, c.revokedBy)})` : ''}
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {liveScopes.length > 0 && (
        <div class="card revoke-consents">
          <p class="hint" id="revoke-hint">
            Revoking stops at once every call that needed the consent. A revoked consent stays listed; it cannot be
            restored, only recorded again.
          </p>
          <div class="actions">
            {[...liveScopes, ...(liveScopes.length > 1 ? ['all'] : [])].map((scope) => (
              <form key={scope} method="post" action={`/console/contacts/${props.contactId}/consents/revoke`}>
                <input type="hidden" name="csrf" value={props.csrf} />
                <input type="hidden" name="scope" value={scope === '' ? 'account' : scope} />
                <button type="submit" class="danger" aria-describedby="revoke-hint">
                  {scope === 'all'
                    ? 'Revoke every consent'
                    : `Revoke the consents for ${scopeWords(scope === '' ? null : scope)}`}
                </button>
              </form>
            ))}
          </div>
        </div>
      )}
    </>
  );
}

function ConsentForm(props: {
  contactId: string;
  csrf: string;
  workflows: Array<{ id: string; name: string; status: string }>;
  values: ConsentFormValues;
  errors: Record<string, string>;
}) {
  const { values, errors } = props;
  const described = (name: string, hint?: boolean) =>
    [hint && `${name}-hint`, errors[name] && `${name}-error`].filter(Boolean).join(' ') || undefined;
  const invalid = (name: string) => (errors[name] ? 'true' : undefined);
  const count = Object.keys(errors).filter((field) => field !== 'form').length;
  return (
    <>
      <h3 id="record-consent-title">Record a consent</h3>
      <FormAlert
        message={
          errors.form
            ? `The consent was not recorded: ${errors.form}`
            : count > 0
              ? `The consent was not recorded: ${count === 1 ? 'one field needs' : `${count} fields need`} a change, marked below.`
              : undefined
        }
      />
      <form
        method="post"
        action={`/console/contacts/${props.contactId}/consents`}
        class="card narrow consent-form"
        aria-labelledby="record-consent-title"
      >
        <input type="hidden" name="csrf" value={props.csrf} />
        <label for="consent-kind">Kind</label>
        <select id="consent-kind" name="kind" aria-invalid={invalid('kind')} aria-describedby={described('kind')}>
          {[...CONSENT_KINDS].reverse().map((kind) => (
            <option key={kind} value={kind} selected={values.kind === kind}>
              {words(KIND_CHOICES, kind)}
            </option>
          ))}
        </select>
        <FieldError id="kind-error" message={errors.kind} />
        <label for="consent-scope">Covers</label>
        <select id="consent-scope" name="scope" aria-invalid={invalid('scope')} aria-describedby={described('scope')}>
          <option value="" selected={values.scope === ''}>
            Every call of the Account
          </option>
          {props.workflows
            .filter((w) => w.status !== 'archived' || w.id === values.scope)
            .map((w) => (
              <option key={w.id} value={w.id} selected={values.scope === w.id}>
                {`Only workflow “${w.name}”`}
              </option>
            ))}
        </select>
        <FieldError id="scope-error" message={errors.scope} />
        <label for="consent-method">Method</label>
        <select
          id="consent-method"
          name="method"
          aria-invalid={invalid('method')}
          aria-describedby={described('method')}
        >
          {CONSENT_METHODS.map((method) => (
            <option key={method} value={method} selected={values.method === method}>
              {words(METHOD_WORDS, method)}
            </option>
          ))}
        </select>
        <FieldError id="method-error" message={errors.method} />
        <label for="consent-evidence">Evidence</label>
        <textarea
          id="consent-evidence"
          name="evidence"
          rows={3}
          maxLength={2000}
          aria-invalid={invalid('evidence')}
          aria-describedby={described('evidence', true)}
          value={values.evidence}
        />
        <p class="hint" id="evidence-hint">
          What proves it: the form’s text and where it was submitted, a recording’s address, a document’s reference.
        </p>
        <FieldError id="evidence-error" message={errors.evidence} />
        <label for="consent-obtained-at">Obtained at</label>
        <input
          id="consent-obtained-at"
          name="obtainedAt"
          type="datetime-local"
          required
          value={values.obtainedAt}
          data-zone-field="consent-obtained-at-zone"
          aria-invalid={invalid('obtainedAt')}
          aria-describedby={described('obtainedAt', true)}
        />
        <input type="hidden" id="consent-obtained-at-zone" name="obtainedAtZone" value={values.obtainedAtZone} />
        <p class="hint" id="obtainedAt-hint">
          When the contact gave it, on the clock of <span data-zone-name>{values.obtainedAtZone}</span>; not in the
          future.
        </p>
        <FieldError id="obtainedAt-error" message={errors.obtainedAt} />
        <button type="submit">Record the consent</button>
      </form>
    </>
  );
}

export function CallingSection(props: {
  contactId: string;
  csrf: string;
  dialing: DialingView;
  consents: ConsentRow[];
  /** The Account's workflows: their names, and the ones a consent may cover (not archived). */
  workflows: Array<{ id: string; name: string; status: string }>;
  values: ConsentFormValues;
  errors?: Record<string, string>;
  notice?: string;
}) {
  const workflowNames = Object.fromEntries(props.workflows.map((w) => [w.id, w.name]));
  return (
    <section aria-labelledby="calling-title" id="calling" class="calling">
      <h2 id="calling-title">Calling</h2>
      <FormAlert message={props.notice} tone="ok" />
      <Decision dialing={props.dialing} workflowNames={workflowNames} />
      <Reasons reasons={props.dialing.reasons} />
      <Attempts attempts={props.dialing.attempts} />
      <Consents contactId={props.contactId} csrf={props.csrf} consents={props.consents} workflowNames={workflowNames} />
      <ConsentForm
        contactId={props.contactId}
        csrf={props.csrf}
        workflows={props.workflows}
        values={props.values}
        errors={props.errors ?? {}}
      />
    </section>
  );
}
