/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
import { KEY_PREFIX } from '../../domain/api-keys/api-keys.service.js';
import { FieldError, FormAlert, Layout, type Viewer } from './layout.js';
import { Time } from './time.js';

export interface KeyRow {
  id: string;
  name: string;
  lastFour: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function ApiKeysPage(props: {
  viewer: Viewer;
  keys: KeyRow[];
  created?: { name: string; secret: string };
  nameError?: string;
  name?: string;
  notice?: string;
}) {
  const active = props.keys.filter((key) => !key.revokedAt);
  return (
    <Layout title="API keys" viewer={props.viewer} current="/console/api-keys">
      <FormAlert message={props.notice} tone="ok" />
      {props.created && (
        <section class="card created" aria-labelledby="created-title">
          <h2 id="created-title">Key “{props.created.name}” created</h2>
          <p>
            Copy it now: it is shown only this once. Send it as <code>Authorization: Bearer …</code>.
          </p>
          <div class="secret">
            <code id="new-secret">{props.created.secret}</code>
            <button type="button" data-copy="new-secret">
              Copy
            </button>
          </div>
        </section>
      )}
      <section class="card" aria-labelledby="new-title">
        <h2 id="new-title">New key</h2>
        <form method="post" action="/console/api-keys" class="inline">
          <input type="hidden" name="csrf" value={props.viewer.csrf} />
          <label for="name">Name</label>
          <input
            id="name"
            name="name"
            maxLength={100}
            required
            placeholder="CRM sync"
            value={props.name ?? ''}
            aria-invalid={props.nameError ? 'true' : undefined}
            aria-describedby={props.nameError ? 'name-error' : undefined}
          />
          <button type="submit">Create key</button>
          <FieldError id="name-error" message={props.nameError} />
        </form>
      </section>
      <section aria-labelledby="list-title">
        <h2 id="list-title">Keys of your Account</h2>
        {props.keys.length === 0 ? (
          <p class="empty">
            No keys yet. Create one above, then send it with every API request; docs/rest-api.md shows the first call.
          </p>
        ) : (
          <div class="table-wrap stacked">
            <table class="stacked">
              <caption class="visually-hidden">
                {active.length} active of {props.keys.length} keys
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {props.keys.map((key) => (
                  <tr key={key.id}>
                    <th scope="row">{key.name}</th>
                    <td data-label="Key">
                      <code>{`${KEY_PREFIX}…${key.lastFour}`}</code>
                    </td>
                    <td data-label="Created">
                      <Time at={key.createdAt} />
                    </td>
                    <td data-label="Last used">{key.lastUsedAt ? <Time at={key.lastUsedAt} /> : 'never'}</td>
                    <td data-label="Status">
                      {key.revokedAt ? (
                        <span>
                          revoked <Time at={key.revokedAt} />
                        </span>
                      ) : (
                        // A link to the confirmation page: nothing is revoked until it is confirmed there.
                        <a
                          href={`/console/api-keys/${key.id}/revoke`}
                          class="button danger"
                          aria-label={`Revoke ${key.name}`}
                        >
                          Revoke
                        </a>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Layout>
  );
}

/**
 * The confirmation a revocation asks for (no script needed): what the key is, what revoking it
 * does, the button that revokes it and the way back. A key already revoked says so instead.
 */
export function RevokeKeyPage(props: { viewer: Viewer; apiKey: KeyRow }) {
  const key = props.apiKey;
  return (
    <Layout title="Revoke an API key" viewer={props.viewer} current="/console/api-keys">
      <section class="card narrow" aria-labelledby="revoke-title">
        <h2 id="revoke-title">Key “{key.name}”</h2>
        <dl class="fields">
          <dt>Key</dt>
          <dd>
            <code>{`${KEY_PREFIX}…${key.lastFour}`}</code>
          </dd>
          <dt>Created</dt>
          <dd>
            <Time at={key.createdAt} />
          </dd>
          <dt>Last used</dt>
          <dd>{key.lastUsedAt ? <Time at={key.lastUsedAt} /> : 'never'}</dd>
        </dl>
        {key.revokedAt ? (
          <p>
            This key is already revoked (<Time at={key.revokedAt} />
            ): the API refuses it.
          </p>
        ) : (
          <form method="post" action={`/console/api-keys/${key.id}/revoke`} class="confirm">
            <input type="hidden" name="csrf" value={props.viewer.csrf} />
            <p class="hint warning" id="revoke-warning">
              Every request that sends this key is refused from the moment it is revoked (401). This cannot be undone: a
              program that uses it needs a new key.
            </p>
            <button type="submit" class="danger solid" aria-describedby="revoke-warning">
              Revoke “{key.name}”
            </button>
          </form>
        )}
        <p>
          <a href="/console/api-keys">{key.revokedAt ? 'Back to the keys' : 'Cancel: keep the key'}</a>
        </p>
      </section>
    </Layout>
  );
}
