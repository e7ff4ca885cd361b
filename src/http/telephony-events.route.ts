// POST /api/telephony/events: signed events from a real telephony provider.
//
// The route reads the body as raw bytes (it is mounted before the /api JSON parser) because the
// HMAC (../calls/telephony/signature.ts) is computed over exactly the bytes received. Order:
//   1. no secrets configured (TELEPHONY_WEBHOOK_SECRETS)  -> 404 not_found
//   2. signature missing / malformed / stale              -> 401 unauthenticated, body not read
//      signature mismatch (needs the body, 2 MB at most)  -> 401 unauthenticated
//   3. body not JSON                                       -> 400 bad_request
//   4. not a valid event (parseTelephonyEvent)            -> 400 bad_request with `issues`
//   5. applyTelephonyEvent: 200 { status: 'applied' | 'duplicate' }; its DomainErrors keep their
//      status (404 unknown call or agent number, 400 unusable call.inbound).
// Errors go to the app's error mapper, so every response has the standard error body and the
// x-request-id header.
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Services } from '../domain/context.js';
import { DomainError } from '../domain/errors.js';
import { UUID_PATTERN } from '../domain/shared/ids.js';
import {
  checkSignatureHeader,
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  verifySignature,
  type SignatureFailure,
} from '../calls/telephony/signature.js';
import { parseTelephonyEvent } from '../calls/telephony/telephony.port.js';
import { applyTelephonyEvent } from '../domain/calls/call-events.service.js';
import { refuseDeclaredOversize } from './edge/body-limits.js';

export const TELEPHONY_EVENTS_PATH = '/api/telephony/events';

const SIGNATURE_MESSAGES: Record<SignatureFailure, string> = {
  missing: `Missing ${SIGNATURE_HEADER} header`,
  malformed: `Malformed ${SIGNATURE_HEADER} header: expected t=<unix seconds>,v1=<hex HMAC-SHA256>`,
  stale: `The ${SIGNATURE_HEADER} timestamp is outside the ${DEFAULT_TOLERANCE_SECONDS / 60}-minute window`,
  mismatch: `The ${SIGNATURE_HEADER} signature does not match the body`,
};

// Its failures (too large, aborted) go to the app's error handler, as express.json's do.
export const TELEPHONY_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
const rawBody = express.raw({ type: () => true, limit: TELEPHONY_BODY_LIMIT_BYTES });

/** The router for TELEPHONY_EVENTS_PATH; `secrets` empty or absent: the endpoint answers 404. */
export function telephonyEventsRouter(services: Services, secrets: readonly string[] | undefined): express.Router {
  const router = express.Router();
  const configured = (secrets ?? []).filter((secret) => secret.length > 0);

  if (configured.length === 0) {
    // Off: every request is a 404 saying so, before any body is read. A middleware, not a
    // route, so OPTIONS does not offer a POST that would only answer 404.
    router.use((_req: Request, _res: Response, next: NextFunction) =>
      next(new DomainError('not_found', 'Telephony events are not enabled')),
    );
    return router;
  }

  // The header alone refuses a request without a usable signature, before its body is read.
  const signedHeader = (req: Request, _res: Response, next: NextFunction) => {
    const checked = checkSignatureHeader(req.header(SIGNATURE_HEADER), services.clock.now());
    next(checked.ok ? undefined : new DomainError('unauthenticated', SIGNATURE_MESSAGES[checked.reason]));
  };

  router.post(
    '/',
    signedHeader,
    refuseDeclaredOversize(TELEPHONY_BODY_LIMIT_BYTES),
    rawBody,
    async (req: Request, res: Response) => {
      const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);

      const verified = verifySignature(body, req.header(SIGNATURE_HEADER), configured, services.clock.now());
      if (!verified.ok) throw new DomainError('unauthenticated', SIGNATURE_MESSAGES[verified.reason]);

      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw new DomainError('bad_request', 'The body is not valid JSON');
      }
      const parsed = parseTelephonyEvent(json);
      if (!parsed.ok)
        throw new DomainError('bad_request', 'The body is not a valid telephony event', { issues: parsed.issues });

      const { event } = parsed;
      // Call ids are UUIDs (an inbound call's becomes the new Call's id); any other id cannot name
      // a call, and must not reach the ::uuid casts.
      if (!UUID_PATTERN.test(event.callId)) {
        if (event.type === 'call.inbound') throw new DomainError('bad_request', 'call.inbound: callId must be a UUID');
        throw new DomainError('not_found', `No call ${event.callId}`);
      }
      const status = await applyTelephonyEvent(services, event);
      res.status(200).json({ status });
    },
  );
  return router;
}
