// What every board-app endpoint does first: verify monday's JWT (Signing Secret, `aud`, `exp`)
// and resolve the linked Contactline Account, acting as the user who linked it.
import type { Request, Response } from 'express';
import type { RequestContext, Services } from '../../src/domain/context.js';
import { asDomainError, DomainError } from '../../src/domain/errors.js';
import { authenticateMondayAccount } from '../../src/domain/monday/monday-link.service.js';
import { findUnstorableText } from '../../src/domain/shared/storable-text.js';
import { errorBody } from '../../src/http/error-body.js';
import { MondayAuthError, verifyMondayJwt, type MondayClaims } from './monday-jwt.js';
import type { MondayConfig } from './config.js';
import { runFailed } from './action-failure.js';

export interface MondayRequest {
  ctx: RequestContext;
  claims: MondayClaims;
}

/** Answers a refusal of a board-app route that is not an action run: the error's status and the API's error body. */
export function answerRefusal(res: Response, error: DomainError): void {
  res.status(error.status).json(errorBody(error, res.locals.requestId as string));
}

/** monday's verified claims, or null when the 401 has been sent. Reads headers only. */
function verifiedClaims(services: Services, config: MondayConfig, req: Request, res: Response): MondayClaims | null {
  try {
    // The URL monday called: the public base (which may carry a path prefix) + the path we saw.
    const audience = config.publicBaseUrl ? `${config.publicBaseUrl.replace(/\/+$/, '')}${req.originalUrl}` : undefined;
    return verifyMondayJwt(req.header('authorization'), config.signingSecret, { audience, now: services.clock.now() });
  } catch (error) {
    if (!(error instanceof MondayAuthError)) throw error;
    answerRefusal(res, new DomainError('unauthenticated', error.message));
    return null;
  }
}

/**
 * Middleware before the board app's JSON body parser: a request without monday's valid token
 * is answered 401 from its headers, before its body is read.
 */
export function mondayTokenFirst(services: Services, config: MondayConfig) {
  return (req: Request, res: Response, next: () => void): void => {
    // OPTIONS carries no body and needs no token (src/http/options.ts answers it).
    if (req.method === 'OPTIONS' || verifiedClaims(services, config, req, res)) next();
  };
}

/** The verified request, or null when an answer (400 / 401 / 403) has been sent. */
export async function verifyMondayRequest(
  services: Services,
  config: MondayConfig,
  req: Request,
  res: Response,
): Promise<MondayRequest | null> {
  const claims = verifiedClaims(services, config, req, res);
  if (!claims) return null;
  // Parts of monday's payloads are stored as they come (action runs, trigger subscriptions), so
  // text the database cannot store is refused here, for every route, once the token is good.
  const unstorable = findUnstorableText(req.body ?? null);
  if (unstorable) {
    const message = `${unstorable.path || 'body'}: ${unstorable.message}`;
    if (req.path.startsWith('/actions/')) {
      const description = `monday sent a value Contactline cannot store (${message})`;
      const failure = runFailed('Unreadable input', description, message);
      res.status(failure.status).json(failure.body);
    } else {
      answerRefusal(res, new DomainError('bad_request', message));
    }
    return null;
  }
  const mondayAccountId = String(claims.accountId);
  let actor: Awaited<ReturnType<typeof authenticateMondayAccount>>;
  try {
    actor = await authenticateMondayAccount(services, mondayAccountId);
  } catch (error) {
    const refusal = asDomainError(error);
    if (refusal?.code !== 'forbidden') throw error;
    answerRefusal(res, refusal);
    return null;
  }
  const requestId = res.locals.requestId as string;
  const ctx: RequestContext = { ...services, requestId, isAdmin: false, actor, boardApp: { mondayAccountId } };
  return { ctx, claims };
}
