/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
import { KEY_PREFIX } from '../../domain/api-keys/api-keys.service.js';
import { KEY_SCOPES, SCOPE_DESCRIPTIONS } from '../../domain/api-keys/key-scopes.js';
import { FieldError, FormAlert, Layout, type Viewer } from './layout.js';
import { Time } from './time.js';

export interface KeyRow {
  id: string;
  name: string;
  lastFour: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** null: every scope. */
  scopes: string[] | null;
  expiresAt: string | null;
  /** Past its expiry (by the service's clock). */
  expired?: boolean;
}

/** A key's scopes in words. */
const scopeWords = (key: KeyRow) => key.scopes?.join(', ') ?? 'every scope';

export function ApiKeysPage(props: {
  viewer: Viewer;
  keys: KeyRow[];
  created?: { name: string; secret: string };
  /** The refused form's values and its errors by field (name, scopes, expiresAt). */
  name?: string;
  scopes?: string[];
  expires?: string;
  errors?: Record<string, string>;
  notice?: string;
}) {
  const errors = props.errors ?? {};
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
        <form method="post" action="/console/api-keys">
          <input type="hidden" name="csrf" value={props.viewer.csrf} />
          <div class="field">
            <label for="name">Name</label>
            <input
              id="name"
              name="name"
              maxLength={100}
              required
              placeholder="CRM sync"
              value={props.name ?? ''}
              aria-invalid={errors.name ? 'true' : undefined}
              aria-describedby={errors.name ? 'name-error' : undefined}
            />
            <FieldError id="name-error" message={errors.name} />
          </div>
          <fieldset aria-describedby="scopes-hint">
            <legend>Scopes</legend>
            <p class="hint" id="scopes-hint">
              What the key may do. Tick none for a key with every scope; give each program only what it needs.
            </p>
            <div class="checks">
              {KEY_SCOPES.map((scope) => (
                <div class="field check" key={scope}>
                  <input
                    type="checkbox"
                    id={`scope-${scope}`}
                    name="scopes"
                    value={scope}
                    checked={props.scopes?.includes(scope) ?? false}
                  />
                  <label for={`scope-${scope}`}>
                    <code>{scope}</code> {SCOPE_DESCRIPTIONS[scope]}
                  </label>
                </div>
              ))}
            </div>
            <FieldError id="scopes-error" message={errors.scopes} />
          </fieldset>
          <div class="field">
            <label for="expires">Expires on (optional; refused from 00:00 UTC that day)</label>
            <input
              id="expires"
              name="expires"
              type="date"
              value={props.expires ?? ''}
              aria-invalid={errors.expiresAt ? 'true' : undefined}
              aria-describedby={errors.expiresAt ? 'expires-error' : undefined}
            />
            <FieldError id="expires-error" message={errors.expiresAt} />
          </div>
          <button type="submit">Create key</button>
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
                  <th scope="col">Scopes</th>
                  <th scope="col">Expires</th>
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
                    <td data-label="Scopes">{scopeWords(key)}</td>
                    <td data-label="Expires">{key.expiresAt ? <Time at={key.expiresAt} /> : 'never'}</td>
                    <td data-label="Status">
                      {key.revokedAt ? (
                        <span>
                          revoked <Time at={key.revokedAt} />
                        </span>
                      ) : key.expired ? (
                        <span>expired</span>
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
          <dt>Scopes</dt>
          <dd>{scopeWords(key)}</dd>
          <dt>Expires</dt>
          <dd>{key.expiresAt ? <Time at={key.expiresAt} /> : 'never'}</dd>
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
