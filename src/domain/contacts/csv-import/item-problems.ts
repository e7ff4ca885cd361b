// Which items of a refused bulk import a 400 names: the issues' paths (`contacts[12].phone`),
// as both the REST body and the domain error carry them. An importer drops those rows, reports
// them, and sends the rest again (the CLI over HTTP, the console's upload in-process).

/** The items the issues name (below `count`), each with its problems: the path below the item, and why. */
export function itemProblems(issues: unknown, count: number): Map<number, string[]> {
  const named = new Map<number, string[]>();
  if (!Array.isArray(issues)) return named;
  for (const issue of issues as Array<{ path?: unknown; message?: unknown }>) {
    const match = /^contacts\[(\d+)\]\.?(.*)$/.exec(typeof issue?.path === 'string' ? issue.path : '');
    if (!match) continue;
    const index = Number(match[1]);
    if (index >= count) continue;
    const field = match[2];
    const problem = `${field ? `${field}: ` : ''}${typeof issue.message === 'string' ? issue.message : 'refused'}`;
    named.set(index, [...(named.get(index) ?? []), problem]);
  }
  return named;
}
