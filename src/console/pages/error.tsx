/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// What a console page answers when the request itself fails (a form too large, the service
// failing): the console's layout with the reason and the request id to quote, never raw JSON.
import { FormAlert, Layout, type Viewer } from './layout.js';

export function ErrorPage(props: { viewer?: Viewer; title: string; message: string; requestId: string }) {
  return (
    <Layout title={props.title} viewer={props.viewer}>
      <FormAlert message={props.message} />
      <p class="hint">
        Request id: <code>{props.requestId}</code>
      </p>
      <p>
        <a href="/console/">Back to the console</a>
      </p>
    </Layout>
  );
}
