// UUID checks for path and query values ("UUID path and query values match the UUID textual format").
import { badRequest } from '../errors.js';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function assertUuid(value: string, name: string): string {
  if (!UUID_PATTERN.test(value)) throw badRequest(`${name} must be a UUID`);
  return value.toLowerCase();
}
