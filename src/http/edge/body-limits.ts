// Body limits, refused from the declared length. body-parser (express.json, express.raw) reads
// a body past its limit to its end before it reports the 413 (to keep the connection usable),
// so a client declaring 1 GB would still be read; a Content-Length over the limit is refused
// here first, unread, and the connection is closed (./unread-body.ts). A chunked body has no
// declared length: the parser stops keeping it at the limit.
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../domain/errors.js';

/** A limit as written in the docs: 10 MB, 16 KB. */
export function byteSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

export const bodyTooLarge = (limitBytes: number) =>
  new DomainError('payload_too_large', `The body is too large (${byteSize(limitBytes)} at most)`);

/** True when the request declares more body bytes than `limitBytes`. */
export function declaresMoreThan(req: Request, limitBytes: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limitBytes;
}

/** Middleware: 413 `payload_too_large` for a declared length over the limit, before anything is read. */
export function refuseDeclaredOversize(limitBytes: number) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    next(declaresMoreThan(req, limitBytes) ? bodyTooLarge(limitBytes) : undefined);
  };
}
