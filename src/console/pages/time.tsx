/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)

/** A time as the reader's clock shows it: UTC in the HTML, the browser's zone once the script runs. */
export function Time(props: { at: string }) {
  return <time datetime={props.at}>{`${props.at.slice(0, 16).replace('T', ' ')} UTC`}</time>;
}

/**
 * A time on the clock of a named zone, with its weekday ("Monday, 16 March 2026, 09:00
 * (America/New_York)"): where the zone is the point (calling hours apply in it). data-zone keeps
 * the script from rewriting it into the reader's zone.
 */
export function ZonedTime(props: { at: string; zone: string }) {
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: props.zone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(props.at));
  return (
    <time datetime={props.at} data-zone={props.zone}>
      {`${text.replace(' at ', ', ')} (${props.zone})`}
    </time>
  );
}
