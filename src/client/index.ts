// The typed client of the REST API (/api/v1), exported by the package as `contactline/client`.
// Its types come from schema/openapi.json: `npm run generate` writes them to
// src/generated/openapi.d.ts with openapi-typescript, and openapi-fetch checks each call's
// path, parameters and body against them and types what it answers. The CLI's import sends
// its chunks through it, so the document is exercised by real code, not only by the tests.
// A library: it imports no other module of this service.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../generated/openapi.js';

export type { components, operations, paths } from '../generated/openapi.js';

export type ContactlineClient = Client<paths>;
export type Contact = components['schemas']['Contact'];
export type ContactWrite = components['schemas']['ContactWrite'];
export type ErrorBody = components['schemas']['ErrorBody'];

export interface ContactlineClientOptions {
  /** The service's address, e.g. `http://127.0.0.1:3000` (a path prefix is kept). */
  baseUrl: string;
  /** An API key, `svc_pk_…`: sent as `Authorization: Bearer` on every request. */
  apiKey: string;
  /** Another fetch (tests, a proxy agent); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

export function createContactlineClient({ baseUrl, apiKey, fetch }: ContactlineClientOptions): ContactlineClient {
  return createClient<paths>({
    // The document's paths are absolute (/api/v1/…): a trailing slash would double it.
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
}
