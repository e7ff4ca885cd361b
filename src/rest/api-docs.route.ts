// GET /docs: the REST API's interactive documentation, Redoc rendering schema/openapi.json's
// document (served at GET /openapi.json). Everything the page loads comes from this service:
// the HTML from here, Redoc's standalone bundle from the installed `redoc` package through one
// explicit route (with Redocly's CDN logo left out), the document from /openapi.json, so the page
// works offline and its CSP names no other origin. No inline script either: Redoc's standalone
// bundle starts itself on the <redoc spec-url> element and reads its options from that element's
// attributes.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import express from 'express';

export const DOCS_PATH = '/docs';
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';
export const REDOC_BUNDLE_PATH = `${DOCS_PATH}/assets/redoc.standalone.js`;

const REDOC_BUNDLE_FILE = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');

/**
 * Redoc 2's sidebar footer always shows Redocly's logo from its CDN (no option turns it off): the
 * CSP refuses that origin, so each visit logged a violation. The bundle is served with the logo's
 * address emptied: an <img> with an empty src makes no request and fails at once, and Redoc's own
 * error handler then drops it, leaving the footer's text link. Nothing else of the bundle changes.
 */
export const REDOC_LOGO_URL = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
let redocBundle: Promise<string> | undefined;
const redocBundleText = () => {
  redocBundle ??= readFile(REDOC_BUNDLE_FILE, 'utf8').then((text) => text.replaceAll(REDOC_LOGO_URL, ''));
  return redocBundle;
};

/**
 * Scripts and data from this service only. Redoc styles with styled-components, which writes
 * <style> elements and style attributes at run time, hence 'unsafe-inline' for styles (never
 * for scripts); its search index runs in a Worker made from a blob: URL.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Redoc options, as attributes of <redoc> (kebab-case names of Redoc's options). */
const REDOC_ATTRIBUTES = {
  'spec-url': OPENAPI_DOCUMENT_PATH,
  'expand-responses': '200,201,202',
  'required-props-first': 'true',
  'hide-hostname': 'true',
};

const attributes = Object.entries(REDOC_ATTRIBUTES)
  .map(([name, value]) => `${name}="${value}"`)
  .join(' ');

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Contactline API</title>
<link rel="icon" href="data:,">
</head>
<body>
<redoc ${attributes}></redoc>
<script src="${REDOC_BUNDLE_PATH}"></script>
</body>
</html>
`;

export function apiDocsRouter(): express.Router {
  const router = express.Router();
  router.get(DOCS_PATH, (_req, res) => {
    res
      .set({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'content-security-policy': DOCS_CSP,
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
      })
      .send(DOCS_PAGE);
  });
  // The bundle changes only with the installed redoc version; a day's caching spares reloads.
  router.get(REDOC_BUNDLE_PATH, async (_req, res, next) => {
    try {
      const text = await redocBundleText();
      res
        .set({
          'content-type': 'text/javascript; charset=utf-8',
          'x-content-type-options': 'nosniff',
          'cache-control': 'public, max-age=86400',
        })
        .send(text);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
