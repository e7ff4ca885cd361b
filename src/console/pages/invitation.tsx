/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
import { FieldError, FormAlert, Layout } from './layout.js';
import { PASSWORD_MIN } from '../../domain/users/users.inputs.js';

export function InvitationPage(props: { email: string; action: string; error?: string }) {
  return (
    <Layout title="Set your password">
      <p>
        You were invited to the Contactline console as <strong>{props.email}</strong>. Choose a password of at least{' '}
        {PASSWORD_MIN} characters: a few words you remember work well.
      </p>
      <form method="post" action={props.action} class="card narrow">
        <input type="text" name="username" autocomplete="username" value={props.email} hidden readOnly />
        <label for="password">New password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          minLength={PASSWORD_MIN}
          required
          aria-invalid={props.error ? 'true' : undefined}
          aria-describedby={props.error ? 'password-error' : undefined}
        />
        <FieldError id="password-error" message={props.error} />
        <button type="submit">Set password</button>
      </form>
    </Layout>
  );
}

export function InvitationGonePage() {
  return (
    <Layout title="Invitation link not usable">
      <FormAlert message="This invitation link was used, replaced by a newer one, or has expired." />
      <p>
        Ask your operator for a new link, or <a href="/console/sign-in">sign in</a> if you already set a password.
      </p>
    </Layout>
  );
}
