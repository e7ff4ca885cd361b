// Imports: a CSV upload (multipart, read here with busboy after the session and the CSRF token
// are checked), its preview and mapping, and its import in steps of 1000 rows, each step an
// importCsvUpload operation. A browser without script posts the mapping once and the import runs
// in that request; console.js asks for JSON and posts one step at a time, moving a progress bar.
import busboy from 'busboy';
import express, { type Request, type Response, type Router } from 'express';
import { MAX_COLUMNS } from '../../domain/contacts/csv-import/csv-uploads.service.js';
import { asDomainError, type DomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleImportOperations } from '../../graphql/operations/console-imports.js';
import { declaresMoreThan } from '../../http/edge/body-limits.js';
import { type ConsoleKit, type Signed, send } from '../console-kit.js';
import { csrfTokenMatches } from '../console-session.js';
import { ForbiddenPage } from '../pages/forbidden.js';
import { ImportPage, ImportsPage, type UploadView } from '../pages/imports.js';
import { NotFoundPage } from '../pages/not-found.js';

export const MAX_UPLOAD_MEGABYTES = 10;
const MAX_UPLOAD_BYTES = MAX_UPLOAD_MEGABYTES * 1024 * 1024;
/** The form's other parts (the token, the multipart framing) on top of the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** A request without script imports for this long, then answers with the page (and a Continue button). */
const NO_SCRIPT_STEPS_MS = 20_000;

const TOO_LARGE = `The file is larger than ${MAX_UPLOAD_MEGABYTES} MB: split it into smaller files and upload each.`;
const NO_FILE = 'Choose a CSV file to upload.';
const FORBIDDEN = 'This form expired or was not sent from this console. Reload the page and try again.';

type Upload =
  | { kind: 'file'; fileName: string; mimeType: string; bytes: Buffer }
  | { kind: 'none' }
  | { kind: 'too-large' }
  | { kind: 'forbidden' }
  | { kind: 'unreadable' };

export function importRoutes(router: Router, { withSession, signedIn, viewerOf }: ConsoleKit): void {
  const stepForm = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: MAX_COLUMNS + 10 });

  router.get(
    '/imports',
    withSession(async (_req, res, signed) =>
      send(res, 200, ImportsPage({ viewer: viewerOf(signed), maxMegabytes: MAX_UPLOAD_MEGABYTES })),
    ),
  );

  router.post('/imports', async (req, res, next) => {
    try {
      const signed = await signedIn(req, res);
      if (!signed) return;
      const refuse = (message: string) =>
        send(
          res,
          400,
          ImportsPage({ viewer: viewerOf(signed), maxMegabytes: MAX_UPLOAD_MEGABYTES, fileError: message }),
        );
      // Declared too large: refused unread (the edge closes the connection of an unread body).
      if (declaresMoreThan(req, MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES)) return refuse(TOO_LARGE);
      if (!req.is('multipart/form-data')) return refuse(NO_FILE);
      const upload = await readUpload(req, signed);
      if (upload.kind === 'forbidden') return send(res, 403, ForbiddenPage({ reason: FORBIDDEN }));
      if (upload.kind === 'too-large') return refuse(TOO_LARGE);
      if (upload.kind === 'unreadable') return refuse('The form could not be read: choose the file and upload again.');
      if (upload.kind === 'none') return refuse(NO_FILE);
      const text = csvText(upload);
      if (!text.ok) return refuse(text.message);
      try {
        const { createCsvUpload } = await runOperation(signed.ctx, ConsoleImportOperations.createUpload, {
          fileName: upload.fileName,
          csv: text.csv,
        });
        res.redirect(303, `/console/imports/${createCsvUpload.id}`);
      } catch (error) {
        const failure = asDomainError(error);
        if (failure?.code !== 'bad_request') throw error;
        refuse(fileMessage(failure));
      }
    } catch (error) {
      next(error);
    }
  });

  router.get(
    '/imports/:id',
    withSession(async (req, res, signed) => {
      const upload = await uploadOf(signed, String(req.params.id));
      if (!upload) return notFound(res, signed);
      send(res, 200, ImportPage({ viewer: viewerOf(signed), upload }));
    }),
  );

  router.post('/imports/:id/import', async (req, res, next) => {
    try {
      const signed = await signedIn(req, res);
      if (!signed) return;
      const json = req.accepts(['html', 'json']) === 'json';
      // Its own form parser: a file may have more columns than the console's small forms have fields.
      await new Promise<void>((resolve, reject) =>
        stepForm(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
      );
      if (!csrfTokenMatches(signed.token, req.body?.csrf)) {
        if (json) res.status(403).json({ message: FORBIDDEN });
        else send(res, 403, ForbiddenPage({ reason: FORBIDDEN }));
        return;
      }
      const id = String(req.params.id);
      const sent = req.body?.mapping as unknown;
      const mapping = (Array.isArray(sent) ? sent : sent === undefined ? [] : [sent]).map(String);
      await (json ? oneStep(res, signed, id, mapping) : allSteps(res, signed, id, mapping));
    } catch (error) {
      next(error);
    }
  });

  /** console.js's request: one step, answered with the progress. */
  async function oneStep(res: Response, signed: Signed, id: string, mapping: string[]) {
    try {
      const { importCsvUpload } = await runOperation(signed.ctx, ConsoleImportOperations.importStep, { id, mapping });
      res.status(200).set('cache-control', 'no-store').json(importCsvUpload);
    } catch (error) {
      const failure = asDomainError(error);
      if (failure?.code !== 'bad_request' && failure?.code !== 'not_found') throw error;
      // The script then posts the form itself, and the page shows the refusal where it belongs.
      res.status(failure.status).json({ message: failure.message });
    }
  }

  /** Without script: steps until the import is done (or for a while), then the upload's page. */
  async function allSteps(res: Response, signed: Signed, id: string, mapping: string[]) {
    // A monotonic timer: how long this request has worked, not a time of day (that is ctx.clock).
    const started = performance.now();
    try {
      for (;;) {
        const { importCsvUpload } = await runOperation(signed.ctx, ConsoleImportOperations.importStep, {
          id,
          mapping,
        });
        if (importCsvUpload.status === 'done' || performance.now() - started > NO_SCRIPT_STEPS_MS) break;
      }
      res.redirect(303, `/console/imports/${id}`);
    } catch (error) {
      const failure = asDomainError(error);
      if (failure?.code === 'not_found') return notFound(res, signed);
      if (failure?.code !== 'bad_request') throw error;
      const upload = await uploadOf(signed, id);
      if (!upload) return notFound(res, signed);
      send(
        res,
        400,
        ImportPage({ viewer: viewerOf(signed), upload, choices: mapping, errors: mappingErrors(failure) }),
      );
    }
  }

  /** The person's upload, or null (another person's, expired, or not an id). */
  async function uploadOf(signed: Signed, id: string): Promise<UploadView | null> {
    try {
      const { csvUpload } = await runOperation(signed.ctx, ConsoleImportOperations.upload, { id });
      return csvUpload as UploadView;
    } catch (error) {
      const code = asDomainError(error)?.code;
      if (code === 'not_found' || code === 'bad_request') return null;
      throw error;
    }
  }

  function notFound(res: Response, signed: Signed) {
    send(
      res,
      404,
      NotFoundPage({
        viewer: viewerOf(signed),
        what: 'No such upload: it was made by someone else, or more than an hour ago. Upload the file again.',
        back: '/console/imports',
      }),
    );
  }
}

/**
 * Reads the upload form: the CSRF token (a field before the file, or the x-csrf-token header)
 * must be this session's before the file's bytes are kept; the file is cut at the size limit.
 */
function readUpload(req: Request, signed: Signed): Promise<Upload> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
      });
    } catch {
      resolve({ kind: 'unreadable' });
      return;
    }
    let csrf = req.get('x-csrf-token') ?? '';
    let upload: Upload = { kind: 'none' };
    parser.on('field', (name, value) => {
      if (name === 'csrf') csrf = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || upload.kind !== 'none') {
        stream.resume();
        return;
      }
      if (!csrfTokenMatches(signed.token, csrf)) {
        upload = { kind: 'forbidden' };
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let truncated = false;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        truncated = true;
      });
      stream.on('end', () => {
        const bytes = Buffer.concat(chunks);
        // A form sent with no file chosen still has the part, nameless and empty.
        if (truncated) upload = { kind: 'too-large' };
        else if (!info.filename && bytes.length === 0) upload = { kind: 'none' };
        else upload = { kind: 'file', fileName: info.filename ?? '', mimeType: info.mimeType, bytes };
      });
    });
    parser.on('close', () => resolve(csrfTokenMatches(signed.token, csrf) ? upload : { kind: 'forbidden' }));
    parser.on('error', () => {
      req.unpipe(parser);
      req.resume();
      resolve({ kind: 'unreadable' });
    });
    req.pipe(parser);
  });
}

const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel']);

/** The file's text, if it is one: a .csv (or .txt) or a CSV media type, in UTF-8, with no NUL. */
function csvText(
  upload: Extract<Upload, { kind: 'file' }>,
): { ok: true; csv: string } | { ok: false; message: string } {
  const named = /\.(csv|txt)$/i.test(upload.fileName);
  const notCsv = `“${upload.fileName}” is not a CSV file: save it as CSV (comma-separated values) and upload that.`;
  if (!named && !CSV_TYPES.has(upload.mimeType.toLowerCase())) return { ok: false, message: notCsv };
  if (upload.bytes.length === 0)
    return { ok: false, message: 'The file is empty: choose a CSV file whose first line names the columns.' };
  let csv: string;
  try {
    csv = new TextDecoder('utf-8', { fatal: true }).decode(upload.bytes);
  } catch {
    return { ok: false, message: 'The file is not UTF-8 text: save it as “CSV UTF-8” and upload that.' };
  }
  if (csv.includes('\u0000')) return { ok: false, message: notCsv };
  return { ok: true, csv };
}

/** A refused file's message (the service names the `file`). */
const fileMessage = (failure: DomainError): string => {
  const issues = (failure.details.issues ?? []) as Array<{ path?: unknown; message?: unknown }>;
  const about = issues.find((issue) => issue.path === 'file' && typeof issue.message === 'string');
  return (about?.message as string | undefined) ?? failure.message;
};

/** A refused mapping's messages by column (`mapping[3]`); -1: about the whole form. */
function mappingErrors(failure: DomainError): Map<number, string> {
  const errors = new Map<number, string>();
  const issues = (failure.details.issues ?? []) as Array<{ path?: unknown; message?: unknown }>;
  for (const issue of issues) {
    const column = /^mapping\[(\d+)\]/.exec(typeof issue.path === 'string' ? issue.path : '')?.[1];
    if (column !== undefined && typeof issue.message === 'string') errors.set(Number(column), issue.message);
  }
  if (errors.size === 0) errors.set(-1, failure.message);
  return errors;
}
