// Input schemas for the call reads: the calls list's query (limit and nextToken, bounds as in
// the spec's Limits table) and the call id of the transcript read.
import { z } from 'zod';

/** GET .../external-id/{externalId}/calls query: limit 1 to 100 (default 50), opaque nextToken. */
export const CallListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  nextToken: z.string().min(1).max(512).optional(),
});
export type CallListQuery = z.infer<typeof CallListQuerySchema>;
