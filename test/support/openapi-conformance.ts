// Checks real HTTP answers against the checked-in schema/openapi.json. The document must be
// valid OpenAPI 3.1 (@seriousme/openapi-schema-validator, which also resolves its $refs); each
// answer must be a status the document lists for the operation its method and path select,
// with the documented headers and content type, and a body the documented schema accepts
// (Ajv with JSON Schema 2020-12, the dialect of OpenAPI 3.1). A successful request's JSON body
// must fit the documented request body too. It records what it saw, so a suite can require
// that every operation and every documented status was exercised.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

export const OPENAPI_FILE = path.resolve(import.meta.dirname, '../../schema/openapi.json');

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Schema = Record<string, unknown>;

interface HeaderObject {
  required?: boolean;
  schema: Schema;
}

interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema: Schema }>;
}

interface Operation {
  /** `GET /api/v1/contacts/{id}`: the document's method and path template. */
  name: string;
  method: string;
  template: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, ResponseObject>;
}

/** What a test server answered (TestServer.request's result). */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface Conformance {
  /** Every operation of the document, by name. */
  operations: Operation[];
  /**
   * Asserts that `answer` (to `method path`, sent with `body`) is one the document describes,
   * and records the operation and status as exercised.
   */
  check(method: string, path: string, answer: Answer, body?: unknown): void;
  /** `METHOD /template status` for each documented answer not seen yet (minus `exempt`). */
  unexercised(exempt: (operation: string, status: string) => boolean): string[];
}

export async function loadConformance(): Promise<Conformance> {
  const validator = new Validator();
  const validity = await validator.validate(JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')));
  expect(validity.errors ?? [], 'schema/openapi.json is valid OpenAPI').toEqual([]);
  expect(validator.version).toMatch(/^3\.1/);
  const document = validator.resolveRefs() as { paths: Record<string, Record<string, unknown>> };

  const operations: Operation[] = Object.entries(document.paths).flatMap(([template, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      ...(item[method] as Operation),
      name: `${method.toUpperCase()} ${template}`,
      method,
      template,
    })),
  );
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  formats.default(ajv);
  // OpenAPI's own annotation keywords; they never constrain a value.
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  const compiled = new Map<Schema, ValidateFunction>();
  const validate = (schema: Schema, value: unknown, what: string) => {
    let fn = compiled.get(schema);
    if (!fn) {
      fn = ajv.compile(schema);
      compiled.set(schema, fn);
    }
    expect(fn(value) ? [] : fn.errors, what).toEqual([]);
  };

  const seen = new Set<string>();
  return {
    operations,
    check(method, requestPath, answer, body) {
      const operation = operationFor(operations, method, requestPath);
      const what = `${method} ${requestPath} → ${answer.status} (${operation.name}): ${answer.text.slice(0, 300)}`;
      const documented = Object.keys(operation.responses);
      expect(documented, `${what}: the document lists no ${answer.status} for ${operation.name}`).toContain(
        String(answer.status),
      );
      const response = operation.responses[String(answer.status)];

      for (const [name, header] of Object.entries(response.headers ?? {})) {
        const value = answer.headers.get(name);
        if (value === null) {
          expect(header.required ?? false, `${what}: missing required header ${name}`).toBe(false);
          continue;
        }
        validate(header.schema, value, `${what}: header ${name}`);
      }

      const contentType = answer.headers.get('content-type');
      if (!response.content) {
        expect({ contentType, body: answer.text }, `${what}: documented without content`).toEqual({
          contentType: null,
          body: '',
        });
      } else {
        const mediaType = contentType?.split(';')[0].trim().toLowerCase() ?? '(none)';
        expect(Object.keys(response.content), `${what}: content type ${contentType}`).toContain(mediaType);
        const value = mediaType === 'application/json' ? answer.json : answer.text;
        expect(value, `${what}: a body that parses as ${mediaType}`).not.toBeUndefined();
        validate(response.content[mediaType].schema, value, `${what}: body`);
      }

      // An error body's requestId is the x-request-id header (as the header's description says).
      const requestId = (answer.json as { requestId?: unknown } | undefined)?.requestId;
      if (requestId !== undefined) expect(requestId, `${what}: requestId`).toBe(answer.headers.get('x-request-id'));

      // The document must accept the requests the service accepts.
      const requestSchema = operation.requestBody?.content['application/json']?.schema;
      if (answer.status < 300 && requestSchema && body !== undefined)
        validate(requestSchema, body, `${what}: request body`);
      seen.add(`${operation.name} ${answer.status}`);
    },
    unexercised(exempt) {
      return operations.flatMap((operation) =>
        Object.keys(operation.responses)
          .filter((status) => !seen.has(`${operation.name} ${status}`) && !exempt(operation.name, status))
          .map((status) => `${operation.name} ${status}`),
      );
    },
  };
}

/**
 * The operation a request reaches: its method, on the path template that matches the path,
 * a template with a fixed segment winning over one with a parameter there (OpenAPI's rule:
 * /contacts/csv before /contacts/{id}).
 */
function operationFor(operations: Operation[], method: string, requestPath: string): Operation {
  const segments = new URL(requestPath, 'http://x').pathname.split('/');
  const candidates = operations
    .filter((op) => op.method === method.toLowerCase())
    .map((op) => ({ op, template: op.template.split('/') }))
    .filter(
      ({ template }) =>
        template.length === segments.length &&
        template.every((part, i) => isParameter(part) || part === decodeURIComponent(segments[i])),
    )
    .sort((a, b) => specificity(b.template) - specificity(a.template));
  expect(candidates.length, `${method} ${requestPath} is no operation of schema/openapi.json`).toBeGreaterThan(0);
  return candidates[0].op;
}

const isParameter = (segment: string) => /^\{[^}]+\}$/.test(segment);

/** Fixed segments, weighted by position, so the earliest fixed segment decides. */
const specificity = (template: string[]) =>
  template.reduce((sum, part, i) => sum + (isParameter(part) ? 0 : 2 ** (template.length - i)), 0);
