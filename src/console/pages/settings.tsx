/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// The Account's settings: the default location (for contacts whose location says nothing), the
// ordered dedup fields (what makes two writes the same contact), the region, shown only, and the
// calling policy with its history (calling-policy.tsx).
import { CallingPolicySection } from './calling-policy.js';
import { FieldError, FormAlert, Layout, type Viewer } from './layout.js';

export interface AccountSettings {
  name: string;
  region: string;
  defaultLocation: string | null;
  dedupFields: string[];
}

export function SettingsPage(props: {
  viewer: Viewer;
  account: AccountSettings;
  values?: { defaultLocation: string; dedupFields: string };
  errors?: Record<string, string>;
  notice?: string;
  calling: Omit<Parameters<typeof CallingPolicySection>[0], 'csrf'>;
}) {
  const errors = props.errors ?? {};
  const values = props.values ?? {
    defaultLocation: props.account.defaultLocation ?? '',
    dedupFields: props.account.dedupFields.join(', '),
  };
  const described = (field: string, hint: string) => (errors[field] ? `${hint} ${field}-error` : hint);
  return (
    <Layout title="Account settings" viewer={props.viewer} current="/console/settings">
      <FormAlert message={props.notice} tone="ok" />
      {/* Every refusal at once, each next to its field; the alert says how many, as the page loads. */}
      <FormAlert
        message={
          Object.keys(errors).length > 0
            ? `Nothing was saved: ${Object.keys(errors).length === 1 ? 'one field needs' : `${Object.keys(errors).length} fields need`} a change, marked below.`
            : undefined
        }
      />
      <dl class="fields card">
        <dt>Account</dt>
        <dd>{props.account.name}</dd>
        <dt>Region</dt>
        <dd>{props.account.region} (where the Account's data is kept; set when it was created)</dd>
      </dl>
      <form method="post" action="/console/settings" class="card narrow">
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        <label for="defaultLocation">Default location</label>
        <input
          id="defaultLocation"
          name="defaultLocation"
          maxLength={64}
          placeholder="US, US-CA, GB…"
          value={values.defaultLocation}
          aria-invalid={errors.defaultLocation ? 'true' : undefined}
          aria-describedby={described('defaultLocation', 'defaultLocation-hint')}
        />
        <p class="hint" id="defaultLocation-hint">
          A country or region code, used for contacts whose phone and location say nothing. Leave empty for none.
        </p>
        <FieldError id="defaultLocation-error" message={errors.defaultLocation} />
        <label for="dedupFields">Dedup fields, in order</label>
        <input
          id="dedupFields"
          name="dedupFields"
          required
          value={values.dedupFields}
          aria-invalid={errors.dedupFields ? 'true' : undefined}
          aria-describedby={described('dedupFields', 'dedupFields-hint')}
        />
        <p class="hint warning" id="dedupFields-hint">
          phone, externalId or customFields.&lt;key&gt;, separated by commas: two writes with the same values are the
          same contact. Changing them rebuilds the key of every contact in the Account; if two existing contacts would
          then share a key, nothing changes and the contacts in the way are named.
        </p>
        <FieldError id="dedupFields-error" message={errors.dedupFields} />
        <button type="submit">Save settings</button>
      </form>
      <CallingPolicySection csrf={props.viewer.csrf} {...props.calling} />
    </Layout>
  );
}
