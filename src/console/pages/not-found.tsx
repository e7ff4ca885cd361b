/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
import { FormAlert, Layout, type Viewer } from './layout.js';

export function NotFoundPage(props: { viewer?: Viewer; what: string; back: string }) {
  return (
    <Layout title="Not found" viewer={props.viewer}>
      <FormAlert message={props.what} />
      <p>
        <a href={props.back}>Back</a>
      </p>
    </Layout>
  );
}
