/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)

/** A time as the reader's clock shows it: UTC in the HTML, the browser's zone once the script runs. */
export function Time(props: { at: string }) {
  return <time datetime={props.at}>{`${props.at.slice(0, 16).replace('T', ' ')} UTC`}</time>;
}
