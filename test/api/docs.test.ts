// GET /docs on a real listening server: an HTML page whose only script is Redoc's bundle served
// by the service itself (no other origin anywhere in the page or its CSP), the bundle route
// answering JavaScript from the installed package, and the document it renders at
// /openapi.json. The page is the same on every database, so this runs on the embedded one.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_CSP, REDOC_BUNDLE_PATH, REDOC_LOGO_URL } from '../../src/rest/api-docs.route.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('GET /docs: the API documentation', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(() => server?.stop());

  it('answers an HTML page whose script is the bundle this service serves, with a strict CSP and no external URL', async () => {
    const res = await server.request(null, 'GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("script-src 'self'");
    expect(DOCS_CSP).not.toMatch(/https?:|'unsafe-eval'|script-src[^;]*'unsafe-inline'/);

    const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attributes]) => attributes.trim())).toEqual([`src="${REDOC_BUNDLE_PATH}"`]);
    expect(
      scripts.map(([, , inline]) => inline.trim()),
      'no inline script',
    ).toEqual(['']);
    expect(res.text).toContain('<redoc spec-url="/openapi.json"');
    expect(res.text, 'no URL with a scheme or a protocol-relative one').not.toMatch(/(https?:)?\/\/[a-z0-9]/i);
  });

  it('serves the Redoc bundle from the installed package as JavaScript, without its CDN logo', async () => {
    const res = await fetch(server.baseUrl + REDOC_BUNDLE_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const body = await res.text();
    const installed = fs.readFileSync(
      path.resolve(import.meta.dirname, '../../node_modules/redoc/bundles/redoc.standalone.js'),
      'utf8',
    );
    // The one change: the logo's address at Redocly's CDN (which the page's CSP refuses) is emptied.
    expect(installed).toContain(REDOC_LOGO_URL);
    expect(body).not.toContain('cdn.redoc.ly');
    expect(body === installed.replaceAll(REDOC_LOGO_URL, '')).toBe(true);
  });

  it('serves the document it renders at /openapi.json: schema/openapi.json', async () => {
    const res = await server.request(null, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    const file = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../schema/openapi.json'), 'utf8'));
    expect(res.json).toEqual(file);
  });
});
