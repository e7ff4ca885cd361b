/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// The consent page an assistant's OAuth sign-in leads to, and the list of connected applications.
import { OAUTH_SCOPE_DESCRIPTIONS, type OAuthScope } from '../../domain/oauth/oauth.rules.js';
import { FormAlert, Layout, type Viewer } from './layout.js';
import { Time } from './time.js';

/** The authorization request, carried through the consent form unchanged. */
export interface ConsentFields {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  resource?: string;
  state?: string;
}

export function ConsentPage(props: {
  viewer: Viewer;
  clientName: string | null;
  redirectHost: string;
  scopes: OAuthScope[];
  fields: ConsentFields;
}) {
  const name = props.clientName ?? 'An application without a name';
  return (
    <Layout title="Connect an application" viewer={props.viewer}>
      <section class="card narrow" aria-labelledby="consent-title">
        <h2 id="consent-title">{name} asks to read your Account through the tool server</h2>
        <p>
          It will act as you ({props.viewer.email}) and can only read, never change. Allowing sends you back to{' '}
          <strong>{props.redirectHost}</strong>.
        </p>
        <h3>It asks to</h3>
        <ul class="scopes">
          {props.scopes.map((scope) => (
            <li key={scope}>
              <code>{scope}</code> {OAUTH_SCOPE_DESCRIPTIONS[scope]}
            </li>
          ))}
        </ul>
        <p class="hint">You can revoke it at any time under Connected apps.</p>
        <form method="post" action="/console/oauth/authorize">
          <input type="hidden" name="csrf" value={props.viewer.csrf} />
          {Object.entries(props.fields).map(([field, value]) =>
            value === undefined ? null : <input key={field} type="hidden" name={field} value={value} />,
          )}
          <button type="submit" name="decision" value="allow">
            Allow
          </button>{' '}
          <button type="submit" name="decision" value="deny" class="secondary">
            Deny
          </button>
        </form>
      </section>
    </Layout>
  );
}

/** A request that cannot be answered at the application's address: said here, sent nowhere. */
export function ConsentRefusedPage(props: { viewer: Viewer; reason: string }) {
  return (
    <Layout title="This sign-in link is not valid" viewer={props.viewer}>
      <FormAlert message={props.reason} />
      <p>Start connecting again from the application.</p>
    </Layout>
  );
}

export interface ConnectedAppRow {
  id: string;
  clientName: string | null;
  userEmail: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export function ConnectedAppsPage(props: { viewer: Viewer; apps: ConnectedAppRow[]; notice?: string }) {
  return (
    <Layout title="Connected apps" viewer={props.viewer} current="/console/connected-apps">
      <FormAlert message={props.notice} tone="ok" />
      <p>
        Applications that people of your Account connected to the tool server by OAuth. Each reads as the person who
        allowed it, with the scopes shown, until it is revoked.
      </p>
      {props.apps.length === 0 ? (
        <p class="empty">No application is connected.</p>
      ) : (
        <div class="table-wrap stacked">
          <table class="stacked">
            <caption class="visually-hidden">{props.apps.length} connected applications</caption>
            <thead>
              <tr>
                <th scope="col">Application</th>
                <th scope="col">Allowed by</th>
                <th scope="col">Scopes</th>
                <th scope="col">Connected</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {props.apps.map((app) => (
                <tr key={app.id}>
                  <th scope="row">{app.clientName ?? 'Unnamed application'}</th>
                  <td data-label="Allowed by">{app.userEmail}</td>
                  <td data-label="Scopes">{app.scopes.join(', ')}</td>
                  <td data-label="Connected">
                    <Time at={app.createdAt} />
                  </td>
                  <td data-label="Last used">{app.lastUsedAt ? <Time at={app.lastUsedAt} /> : 'never'}</td>
                  <td data-label="Action">
                    <form method="post" action={`/console/connected-apps/${app.id}/revoke`}>
                      <input type="hidden" name="csrf" value={props.viewer.csrf} />
                      <button type="submit" aria-label={`Revoke ${app.clientName ?? 'Unnamed application'}`}>
                        Revoke
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Layout>
  );
}
