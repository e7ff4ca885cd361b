// What every console page route shares: the signed-in person and its GraphQL context, the
// guard that checks the session and the form's CSRF token, the HTML answer with the console's
// security headers, and the mapping of a domain error to the fields a form shows it against.
import type { NextFunction, Request, Response } from 'express';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { RequestContext, Services } from '../domain/context.js';
import type { DomainError } from '../domain/errors.js';
import type { Viewer } from './pages/layout.js';

export type Signed = { ctx: RequestContext; token: string; email: string };

export type SessionHandler = (req: Request, res: Response, signed: Signed) => Promise<void>;

export interface ConsoleKit {
  services: Services;
  /** Signed in, and (on POST) the form's CSRF token is this session's; else a redirect or a 403. */
  withSession: (handler: SessionHandler) => (req: Request, res: Response, next: NextFunction) => Promise<void>;
  /**
   * The signed-in person, or null after redirecting to the sign-in page; reads no body. For a
   * route that reads its own body (a file upload) and checks its CSRF token itself.
   */
  signedIn: (req: Request, res: Response) => Promise<Signed | null>;
  viewerOf: (signed: Signed) => Viewer;
}

/** The Content-Security-Policy of every console page: nothing from anywhere but this service. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self'; media-src https:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function send(res: Response, status: number, page: VNode, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // Not no-referrer: with it Chromium sends `Origin: null` on the page's own form posts, and
      // the same-origin check refuses them. same-origin still keeps a page's address (an
      // invitation token) from every other site.
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': CONSOLE_CSP,
      ...headers,
    })
    .send(`<!doctype html>${renderToString(page)}`);
}

/** A form field's text ('' when absent or not a string). */
export const formField = (req: Request, name: string): string =>
  typeof req.body?.[name] === 'string' ? (req.body[name] as string) : '';

/** A form field sent once or several times (checkboxes of one name), as a list, empty values left out. */
export function formList(req: Request, name: string): string[] {
  const value = req.body?.[name];
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items.filter((item): item is string => typeof item === 'string' && item !== '');
}

/** A 400's messages by the field they name (the first segment of each issue's path). */
export function fieldErrors(error: DomainError): Record<string, string> {
  const issues = (error.details.issues ?? []) as Array<{ path?: unknown; message?: unknown }>;
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const field = typeof issue.path === 'string' ? issue.path.split(/[.[]/)[0] : '';
    if (field && typeof issue.message === 'string' && !out[field]) out[field] = issue.message;
  }
  return out;
}

/** A validation message without the field's path prefix ("name: …" → "…"). */
export function fieldMessage(error: DomainError, field: string): string {
  return error.message.replace(new RegExp(`^${field}:\\s*`), '');
}

/**
 * The errors of a refused form by field: the issues' paths, or else the field the message starts
 * with (one of `fields`), or else the first field.
 */
export function formErrors(error: DomainError, fields: string[]): Record<string, string> {
  const errors = fieldErrors(error);
  if (Object.keys(errors).length > 0) return errors;
  const named = fields.find((field) => error.message.startsWith(field)) ?? fields[0];
  return { [named]: fieldMessage(error, named) };
}
