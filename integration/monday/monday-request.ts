// What every board-app endpoint does first: verify monday's JWT (Signing Secret, `aud`, `exp`)
// and resolve the linked Contactline Account, acting as the user who linked it.
import type { Request, Response } from 'express';
import type { RequestContext, Services } from '../../src/domain/context.js';
import { MondayAuthError, verifyMondayJwt, type MondayClaims } from './monday-jwt.js';
import type { MondayConfig } from './config.js';
import { runFailed } from './action-failure.js';
import { findUnstorableText } from '../../src/domain/shared/storable-text.js';

export interface MondayRequest {
  ctx: RequestContext;
  claims: MondayClaims;
}

/** monday's verified claims, or null when the 401 has been sent. Reads headers only. */
function verifiedClaims(services: Services, config: MondayConfig, req: Request, res: Response): MondayClaims | null {
  try {
    // The URL monday called: the public base (which may carry a path prefix) + the path we saw.
    const audience = config.publicBaseUrl ? `${config.publicBaseUrl.replace(/\/+$/, '')}${req.originalUrl}` : undefined;
    return verifyMondayJwt(req.header('authorization'), config.signingSecret, { audience, now: services.clock.now() });
  } catch (error) {
    if (!(error instanceof MondayAuthError)) throw error;
    res.status(401).json({ error: 'Unauthorized', message: error.message });
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
export async function verifyMondayRequest(services: Services, config: MondayConfig, req: Request, res: Response): Promise<MondayRequest | null> {
  const claims = verifiedClaims(services, config, req, res);
  if (!claims) return null;
  // Parts of monday's payloads are stored as they come (action runs, trigger subscriptions), so
  // text the database cannot store is refused here, for every route, once the token is good.
  const unstorable = findUnstorableText(req.body ?? null);
  if (unstorable) {
    const message = `${unstorable.path || 'body'}: ${unstorable.message}`;
    const failure = req.path.startsWith('/actions/') ? runFailed('Unreadable input', `monday sent a value Contactline cannot store (${message})`, message) : null;
    res.status(400).json(failure?.body ?? { error: 'Bad Request', message });
    return null;
  }
  // One query for the link and the Account's contact rules (this runs on every action).
  const { rows } = await services.db.sql.query<{ accountId: string; userId: string; defaultLocation: string | null; dedupFields: string[] }>(
    `SELECT l."accountId", l."userId", a."defaultLocation", a."dedupFields"
       FROM "MondayLink" l JOIN "Account" a ON a.id = l."accountId"
      WHERE l."mondayAccountId" = $1`,
    [String(claims.accountId)],
  );
  const link = rows[0];
  if (!link) {
    res.status(403).json({ error: 'Forbidden', message: 'This monday account is not linked to Contactline yet: install the app and sign in with a Contactline API key.' });
    return null;
  }
  const ctx: RequestContext = {
    ...services,
    requestId: res.locals.requestId as string,
    isAdmin: false,
    actor: { accountId: link.accountId, userId: link.userId, apiKeyId: null, account: { id: link.accountId, defaultLocation: link.defaultLocation, dedupFields: link.dedupFields } },
  };
  return { ctx, claims };
}
