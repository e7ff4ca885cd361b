/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// The Account's calling policy on the Settings page: why it calls (the purpose picks the law's
// rules), written consent before any call, its own attempt cap beside the law's, and the
// jurisdictions whose rules it turned off, with the warning that doing so is its own
// responsibility; then every change, who made it and when. The domain decides what is valid.
import { capWords, jurisdictionName } from './calling-words.js';
import { FieldError, FormAlert } from './layout.js';
import { Time } from './time.js';

/** The policy as the domain's callingPolicy answers it. */
export interface CallingPolicyView {
  purpose: string;
  requireWrittenConsent: boolean;
  attemptCap: { max: number; periodHours: number } | null;
  disabledJurisdictions: Array<{ jurisdiction: string; disabledAt: string; disabledBy: string }>;
  legalAttemptCaps: Array<{
    ruleId: string;
    jurisdiction: string;
    max: number;
    periodHours: number;
    source: string;
    disabled: boolean;
  }>;
  jurisdictions: string[];
  ruleSetVersion: string;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** One change of the history, in words (the route names who acted). */
export interface PolicyChangeRow {
  at: string;
  who: string;
  lines: string[];
}

/** The form as typed (or as stored). */
export interface PolicyFormValues {
  purpose: string;
  requireWrittenConsent: boolean;
  attemptCapMax: string;
  attemptCapPeriodHours: string;
  disabledJurisdictions: string[];
}

export function policyFormValues(policy: CallingPolicyView): PolicyFormValues {
  return {
    purpose: policy.purpose,
    requireWrittenConsent: policy.requireWrittenConsent,
    attemptCapMax: policy.attemptCap ? String(policy.attemptCap.max) : '',
    attemptCapPeriodHours: policy.attemptCap ? String(policy.attemptCap.periodHours) : '',
    disabledJurisdictions: policy.disabledJurisdictions.map((d) => d.jurisdiction),
  };
}

const PURPOSES: Array<{ value: string; label: string; hint: string }> = [
  {
    value: 'telemarketing',
    label: 'Telemarketing',
    hint: 'The calls sell something: the stricter rules for telephone solicitation apply.',
  },
  {
    value: 'informational',
    label: 'Informational',
    hint: 'Reminders, service and surveys without a sale.',
  },
];

const describedBy = (...ids: Array<string | false | undefined>) => ids.filter(Boolean).join(' ') || undefined;

export function CallingPolicySection(props: {
  csrf: string;
  policy: CallingPolicyView;
  history: PolicyChangeRow[];
  values?: PolicyFormValues;
  errors?: Record<string, string>;
  notice?: string;
  /** Who turned each jurisdiction off, in words. */
  disabledBy: Record<string, string>;
}) {
  const { policy } = props;
  const values = props.values ?? policyFormValues(policy);
  const errors = props.errors ?? {};
  // `form`: a refusal that names no field of the form.
  const count = Object.keys(errors).filter((field) => field !== 'form').length;
  const groups = [
    { title: 'Countries', codes: policy.jurisdictions.filter((code) => !code.includes('-')) },
    { title: 'States and provinces', codes: policy.jurisdictions.filter((code) => code.includes('-')) },
  ].map((group) => ({
    ...group,
    codes: group.codes.toSorted((a, b) => jurisdictionName(a).localeCompare(jurisdictionName(b))),
  }));
  const off = policy.disabledJurisdictions;
  return (
    <section aria-labelledby="calling-policy-title" id="calling-policy" class="calling">
      <h2 id="calling-policy-title">Calling policy</h2>
      <FormAlert message={props.notice} tone="ok" />
      <FormAlert
        message={
          errors.form
            ? `The calling policy was not changed: ${errors.form}`
            : count > 0
              ? `The calling policy was not changed: ${count === 1 ? 'one field needs' : `${count} fields need`} a change, marked below.`
              : undefined
        }
      />
      <form method="post" action="/console/settings/calling-policy" class="card policy-form">
        <input type="hidden" name="csrf" value={props.csrf} />
        <p class="hint">
          The dialer applies the law of the contact’s place (rule set {policy.ruleSetVersion}) and this policy to every
          call. {policy.updatedAt ? 'Last changed ' : 'The Account has the default policy: every rule on.'}
          {policy.updatedAt && <Time at={policy.updatedAt} />}
        </p>
        <fieldset class="choices" aria-describedby={describedBy(errors.purpose && 'purpose-error')}>
          <legend>Purpose of the calls</legend>
          {PURPOSES.map((p) => (
            <div class="field check" key={p.value}>
              <input
                type="radio"
                id={`purpose-${p.value}`}
                name="purpose"
                value={p.value}
                checked={values.purpose === p.value}
                aria-describedby={`purpose-${p.value}-hint`}
              />
              <label for={`purpose-${p.value}`}>{p.label}</label>
              <p class="hint" id={`purpose-${p.value}-hint`}>
                {p.hint}
              </p>
            </div>
          ))}
          <FieldError id="purpose-error" message={errors.purpose} />
        </fieldset>
        <div class="field check">
          <input
            type="checkbox"
            id="requireWrittenConsent"
            name="requireWrittenConsent"
            value="true"
            checked={values.requireWrittenConsent}
            aria-invalid={errors.requireWrittenConsent ? 'true' : undefined}
            aria-describedby={describedBy(
              'requireWrittenConsent-hint',
              errors.requireWrittenConsent && 'requireWrittenConsent-error',
            )}
          />
          <label for="requireWrittenConsent">Require prior express written consent before any call</label>
          <p class="hint" id="requireWrittenConsent-hint">
            Wherever the contact is, even where the law asks for less. A contact without such a consent is not called.
          </p>
          <FieldError id="requireWrittenConsent-error" message={errors.requireWrittenConsent} />
        </div>
        <fieldset class="cap">
          <legend>The Account’s own attempt cap</legend>
          <div class="cap-row">
            <label for="attemptCapMax">At most</label>
            <input
              id="attemptCapMax"
              name="attemptCapMax"
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              size={4}
              value={values.attemptCapMax}
              aria-invalid={errors.attemptCapMax ? 'true' : undefined}
              aria-describedby={describedBy('attemptCap-hint', errors.attemptCapMax && 'attemptCapMax-error')}
            />
            <label for="attemptCapPeriodHours">calls to a contact in any</label>
            <input
              id="attemptCapPeriodHours"
              name="attemptCapPeriodHours"
              type="number"
              inputMode="numeric"
              min={1}
              size={5}
              value={values.attemptCapPeriodHours}
              aria-invalid={errors.attemptCapPeriodHours ? 'true' : undefined}
              aria-describedby={describedBy(
                'attemptCap-hint',
                errors.attemptCapPeriodHours && 'attemptCapPeriodHours-error',
              )}
            />
            <span>hours</span>
          </div>
          <FieldError id="attemptCapMax-error" message={errors.attemptCapMax} />
          <FieldError id="attemptCapPeriodHours-error" message={errors.attemptCapPeriodHours} />
          <p class="hint" id="attemptCap-hint">
            Leave both empty for no cap of the Account’s own. The law’s caps apply whatever this says.
          </p>
          {policy.legalAttemptCaps.length > 0 && (
            <details>
              <summary>
                The law’s caps for {policy.purpose} calls ({policy.legalAttemptCaps.length})
              </summary>
              <ul class="plain">
                {policy.legalAttemptCaps.map((cap) => (
                  <li key={cap.ruleId}>
                    {jurisdictionName(cap.jurisdiction)}: {capWords(cap)}
                    {cap.disabled ? ' (off: the jurisdiction’s rules are turned off)' : ''}{' '}
                    <span class="hint">{cap.source}</span>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </fieldset>
        <fieldset class="jurisdictions" aria-describedby="jurisdictions-warning">
          <legend>Jurisdictions whose rules are off</legend>
          <p class="notice warning" id="jurisdictions-warning">
            Turning a jurisdiction’s rules off lets the dialer call where that law forbids it: at night, on holidays,
            past its caps, without the consent it asks for, or numbers on its do-not-call registry. Whether those calls
            are lawful is the Account’s responsibility, not Contactline’s: turn a law off only when you know it does not
            bind your calls. A country turned off turns its states and provinces off too. Every change is recorded
            below, with who made it.
          </p>
          {groups.map(({ title, codes }) =>
            codes.length === 0 ? null : (
              <div key={title}>
                <p class="group-title">{title}</p>
                <div class="checks">
                  {codes.map((code) => (
                    <div class="field check" key={code}>
                      <input
                        type="checkbox"
                        id={`off-${code}`}
                        name="disabledJurisdictions"
                        value={code}
                        checked={values.disabledJurisdictions.includes(code)}
                      />
                      <label for={`off-${code}`}>{jurisdictionName(code)}</label>
                    </div>
                  ))}
                </div>
              </div>
            ),
          )}
          <FieldError id="disabledJurisdictions-error" message={errors.disabledJurisdictions} />
          <p class="hint">
            {off.length === 0 ? 'Every jurisdiction’s rules are on.' : 'Off now: '}
            {off.map((d, i) => (
              <span key={d.jurisdiction}>
                {i > 0 ? '; ' : ''}
                {d.jurisdiction} since <Time at={d.disabledAt} />, by {props.disabledBy[d.jurisdiction] ?? d.disabledBy}
              </span>
            ))}
          </p>
        </fieldset>
        <button type="submit">Update the calling policy</button>
      </form>
      <h3 id="policy-history-title">Changes to the calling policy</h3>
      {props.history.length === 0 ? (
        <p class="empty">No changes yet.</p>
      ) : (
        <div class="table-wrap stacked">
          <table class="stacked wrap" aria-labelledby="policy-history-title">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What changed</th>
              </tr>
            </thead>
            <tbody>
              {props.history.map((row, index) => (
                <tr key={`${row.at}-${index}`}>
                  <th scope="row">
                    <Time at={row.at} />
                  </th>
                  <td data-label="Who" class="why">
                    {row.who}
                  </td>
                  <td data-label="What changed" class="why">
                    {row.lines.map((line) => (
                      <div key={line}>{line}</div>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
