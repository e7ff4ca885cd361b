/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
import { FormAlert, Layout } from './layout.js';

export function ForbiddenPage(props: { reason: string }) {
  return (
    <Layout title="Not allowed">
      <FormAlert message={props.reason} />
      <p>
        <a href="/console/">Back to the console</a>
      </p>
    </Layout>
  );
}
