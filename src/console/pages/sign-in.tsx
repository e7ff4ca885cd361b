/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
import { FormAlert, Layout } from './layout.js';

export function SignInPage(props: { email?: string; error?: string; notice?: string; next?: string }) {
  return (
    <Layout title="Sign in">
      <FormAlert message={props.notice} tone="ok" />
      <FormAlert message={props.error} />
      <form method="post" action="/console/sign-in" class="card narrow">
        {props.next && <input type="hidden" name="next" value={props.next} />}
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value={props.email ?? ''} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
      <p class="hint">No password yet? Your operator sends you an invitation link to set one.</p>
    </Layout>
  );
}
