// What /docs needs from the OpenAPI document: a summary, a curl sample and examples on every
// operation (the request body's and each answer's that has content), servers and the bearer
// security scheme. `npm run lint:openapi` checks the examples against their schemas.
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../src/rest/openapi.js';

interface MediaType {
  example?: unknown;
}
interface Operation {
  summary?: string;
  operationId?: string;
  tags?: string[];
  'x-codeSamples'?: Array<{ lang: string; source: string }>;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType>; $ref?: string }>;
}
interface Document {
  servers?: Array<{ url: string }>;
  components: {
    securitySchemes?: Record<string, { type: string; scheme?: string }>;
    responses: Record<string, { content?: Record<string, MediaType> }>;
  };
  security?: Array<Record<string, string[]>>;
  tags?: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
}

const document = JSON.parse(JSON.stringify(buildOpenApi())) as Document;
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
);

/** The response itself, or the components.responses entry its $ref names. */
const resolved = (response: Operation['responses'][string]) =>
  response.$ref ? document.components.responses[response.$ref.split('/').pop() as string] : response;

describe('the OpenAPI document, for /docs', () => {
  it('has servers and the bearer API key scheme, required by default', () => {
    expect(document.servers).toEqual([{ url: '/', description: 'This service' }]);
    expect(document.components.securitySchemes?.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ apiKey: [] }]);
  });

  it.each(operations)('$name: summary, operationId, one declared tag and a curl sample', ({ operation }) => {
    expect(operation.summary?.length).toBeGreaterThan(0);
    expect(operation.tags).toHaveLength(1);
    expect(document.tags?.map((tag) => tag.name)).toContain(operation.tags?.[0]);
    expect(operation.operationId?.length).toBeGreaterThan(0);
    expect(operation['x-codeSamples']?.[0]).toMatchObject({ lang: 'Shell', source: expect.stringMatching(/^curl /) });
  });

  it.each(operations)('$name: an example request body and an example of every answer with content', ({ operation }) => {
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
      expect(media.example, `request ${type}`).toBeDefined();
    for (const [status, response] of Object.entries(operation.responses))
      for (const [type, media] of Object.entries(resolved(response).content ?? {}))
        expect(media.example, `${status} ${type}`).toBeDefined();
  });

  it('operationIds and summaries are unique (the client names operations by id, the menu by summary)', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const summaries = operations.map(({ operation }) => operation.summary);
    expect(new Set(summaries).size, 'summaries tell operations apart in the menu').toBe(summaries.length);
  });
});
