// The page every list operation answers, and the shape REST and the MCP tools send it in.

/** A list operation's page. */
export interface Page<T = unknown> {
  data: T[];
  nextToken: string | null;
}

/** A contacts or calls page as REST sends it (and the MCP tools return it): no nextToken on the last page. */
export const restPage = <T>(page: Page<T>): { data: T[]; nextToken?: string } =>
  page.nextToken ? { data: page.data, nextToken: page.nextToken } : { data: page.data };
