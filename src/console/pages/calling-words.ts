// How the console says the calling rules' values: a jurisdiction's name ("Florida (US-FL)"), a
// cap ("3 calls in 24 hours"), who changed the calling policy, and what a change did. Words only;
// every value comes from the domain's operations.
import { iso31662 } from 'iso-3166';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const subdivisionNames = new Map(iso31662.map((entry) => [entry.code, entry.name]));

/** "United States (US)", "Florida (US-FL)"; the code alone when it has no known name. */
export function jurisdictionName(code: string): string {
  let name: string | undefined;
  try {
    name = code.includes('-') ? subdivisionNames.get(code) : regionNames.of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} (${code})` : code;
}

/** "24 hours", "30 days" (a whole number of days when it is one), "1 hour". */
export function periodWords(hours: number): string {
  if (hours % 24 === 0 && hours >= 48) return `${hours / 24} days`;
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/** "3 calls in any 24 hours". */
export function capWords(cap: { max: number; periodHours: number }): string {
  return `${cap.max} call${cap.max === 1 ? '' : 's'} in any ${periodWords(cap.periodHours)}`;
}

/** Who acted, as the policy's history names them (`user:<id>`, `key:<id>`, `operator`), in words. */
export function actorWords(actor: string, known: { userId: string; email: string; keyNames: Map<string, string> }) {
  const [kind, id = ''] = actor.split(':');
  if (kind === 'user')
    return id === known.userId ? `you (${known.email})` : `another person of the Account (user ${id})`;
  if (kind === 'key') {
    const name = known.keyNames.get(id);
    return name ? `the API key “${name}”` : `an API key (${id})`;
  }
  if (actor === 'operator') return 'the operator (CLI or admin token)';
  return actor;
}

const onOff = (value: unknown) => (value === true ? 'on' : value === false ? 'off' : String(value));

function capValue(value: unknown): string {
  const cap = value as { max?: unknown; periodHours?: unknown } | null;
  return cap && typeof cap.max === 'number' && typeof cap.periodHours === 'number'
    ? capWords({ max: cap.max, periodHours: cap.periodHours })
    : 'none';
}

const codes = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** One line per field a change of the policy changed ({ field: { from, to } }). */
export function changeLines(change: unknown): string[] {
  if (!change || typeof change !== 'object') return [];
  const lines: string[] = [];
  for (const [field, diff] of Object.entries(change as Record<string, { from?: unknown; to?: unknown }>)) {
    const { from, to } = diff ?? {};
    if (field === 'purpose') lines.push(`Purpose: ${String(from)} → ${String(to)}`);
    else if (field === 'requireWrittenConsent')
      lines.push(`Written consent before any call: ${onOff(from)} → ${onOff(to)}`);
    else if (field === 'attemptCap') lines.push(`Own attempt cap: ${capValue(from)} → ${capValue(to)}`);
    else if (field === 'disabledJurisdictions') {
      const was = codes(from);
      const is = codes(to);
      const off = is.filter((code) => !was.includes(code));
      const on = was.filter((code) => !is.includes(code));
      if (off.length) lines.push(`Rules turned off: ${off.join(', ')}`);
      if (on.length) lines.push(`Rules turned back on: ${on.join(', ')}`);
    } else lines.push(`${field}: ${JSON.stringify(from)} → ${JSON.stringify(to)}`);
  }
  return lines;
}
