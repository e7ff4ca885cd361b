// The response as every part of the service sees it: Node's own, with the per-request values the
// edge keeps (`locals`, as Express names them). The front door (front-door.ts) gives every
// response its locals before anything else runs, so a route served without Express and one
// served by it read the same values.
import type { ServerResponse } from 'node:http';

export type EdgeResponse = ServerResponse & { locals: Record<string, unknown> };
