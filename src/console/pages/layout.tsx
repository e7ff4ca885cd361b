/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// The page shell every console page renders into: one stylesheet, a skip link, the navigation
// of a signed-in person, and the page's main landmark. Server-rendered; no script is needed to
// use any page.
import type { ComponentChildren } from 'preact';

export interface Viewer {
  email: string;
  csrf: string;
}

const NAV: Array<{ href: string; label: string }> = [
  { href: '/console/contacts', label: 'Contacts' },
  { href: '/console/workflows', label: 'Agents and workflows' },
  { href: '/console/imports', label: 'Imports' },
  { href: '/console/api-keys', label: 'API keys' },
  { href: '/console/connected-apps', label: 'Connected apps' },
  { href: '/console/board', label: 'Board app' },
  { href: '/console/settings', label: 'Settings' },
];

export function Layout(props: { title: string; viewer?: Viewer; current?: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Contactline console`}</title>
        <link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script type="module" src="/console/assets/console.js" />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="bar">
          <span class="brand">Contactline</span>
          {props.viewer && (
            <nav aria-label="Console">
              <ul>
                {NAV.map((item) => (
                  <li key={item.href}>
                    <a href={item.href} aria-current={props.current === item.href ? 'page' : undefined}>
                      {item.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          {props.viewer && (
            <form method="post" action="/console/sign-out" class="signout">
              <input type="hidden" name="csrf" value={props.viewer.csrf} />
              <span class="who">{props.viewer.email}</span>
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
          )}
        </header>
        <main id="main" tabIndex={-1}>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A form's error next to the field it names (`aria-describedby` points here). */
export function FieldError(props: { id: string; message?: string }) {
  if (!props.message) return null;
  return (
    <p class="field-error" id={props.id}>
      {props.message}
    </p>
  );
}

/** A message for the whole form (an error not about one field), announced when the page loads. */
export function FormAlert(props: { message?: string; tone?: 'error' | 'ok' }) {
  if (!props.message) return null;
  return (
    <p class={props.tone === 'ok' ? 'notice ok' : 'notice error'} role={props.tone === 'ok' ? 'status' : 'alert'}>
      {props.message}
    </p>
  );
}

/** The link to a list's next page, when there is one. */
export function NextPageLink(props: { href: string | null; children: ComponentChildren }) {
  if (!props.href) return null;
  return (
    <p>
      <a href={props.href} rel="next">
        {props.children}
      </a>
    </p>
  );
}
