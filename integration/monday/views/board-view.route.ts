// The board view feature (monday's "Board view", opened in an iframe inside a board):
//
//   GET /integrations/monday/views/board?sessionToken=<JWT>   the page
//   GET /integrations/monday/views/assets/…                  its stylesheet, script and monday's SDK
//
// Under the board app's routes, not /console: monday, not a console session, vouches for the
// viewer (the sessionToken, HS256 with the app's Client Secret), the page exists only while the
// board app is on, and it must be frameable by monday, which no console page is. The token's
// account is resolved to the linked Account as every monday request is; the data comes from
// the domain's GraphQL operations, read-only. A missing, forged or expired token → 401, no data.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, Router } from 'express';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { RequestContext, Services } from '../../../src/domain/context.js';
import { asDomainError } from '../../../src/domain/errors.js';
import { authenticateMondayAccount } from '../../../src/domain/monday/monday-link.service.js';
import { runOperation } from '../../../src/graphql/execute.js';
import { BoardViewOperations } from '../../../src/graphql/operations/board-view.js';
import type { MondayConfig } from '../config.js';
import { MondayAuthError, verifyMondaySessionToken } from '../monday-jwt.js';
import { BoardViewPage, type ViewMapping, ViewRefusal } from './board-view.js';

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
/** monday's client library, from node_modules (its browser bundle defines window.mondaySdk). */
const MONDAY_SDK = createRequire(import.meta.url).resolve('monday-sdk-js/dist/main.js');
const RECENT_CALLS = 20;

/**
 * Framed by monday only (no X-Frame-Options: frame-ancestors decides); nothing from anywhere
 * but this service; the token in the address never leaves in a Referer.
 */
export const BOARD_VIEW_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors https://*.monday.com; base-uri 'none'";

function send(res: Response, status: number, page: VNode): void {
  res
    .status(status)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'content-security-policy': BOARD_VIEW_CSP,
    })
    .send(`<!doctype html>${renderToString(page)}`);
}

export function boardViewRouter(services: Services, config: MondayConfig): Router {
  const router = Router();
  router.get('/views/assets/monday-sdk.js', (_req, res) => {
    res.sendFile(MONDAY_SDK, { maxAge: '1h', headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  });
  router.use('/views/assets', express.static(ASSETS, { index: false, fallthrough: false, maxAge: '1h' }));

  router.get('/views/board', async (req: Request, res: Response, next) => {
    try {
      if (!config.oauthClientSecret) {
        send(
          res,
          503,
          ViewRefusal({
            title: 'Board view unavailable',
            message:
              'This Contactline server cannot check monday views yet: its operator must set MONDAY_CLIENT_SECRET.',
          }),
        );
        return;
      }
      const token = typeof req.query.sessionToken === 'string' ? req.query.sessionToken : undefined;
      let accountId: number;
      try {
        accountId = verifyMondaySessionToken(token, config.oauthClientSecret, services.clock.now()).accountId;
      } catch (failure) {
        if (!(failure instanceof MondayAuthError)) throw failure;
        const message =
          failure.reason === 'expired'
            ? 'This view was open too long: its monday session expired. Reload the board.'
            : 'This page shows inside a monday board: add the Contactline view to a board and open it there.';
        send(res, 401, ViewRefusal({ title: 'Not signed by monday', message, retry: failure.reason === 'expired' }));
        return;
      }
      const mondayAccountId = String(accountId);
      let ctx: RequestContext;
      try {
        const actor = await authenticateMondayAccount(services, mondayAccountId);
        ctx = {
          ...services,
          requestId: res.locals.requestId as string,
          isAdmin: false,
          actor,
          boardApp: { mondayAccountId },
        };
      } catch (failure) {
        if (asDomainError(failure)?.code !== 'forbidden') throw failure;
        send(
          res,
          403,
          ViewRefusal({
            title: 'Not linked yet',
            message:
              'This monday account is not linked to Contactline. Sign in to the Contactline console, open "Board app" and link monday there.',
          }),
        );
        return;
      }
      const { mondayLink, boardMapping } = await runOperation(ctx, BoardViewOperations.view, { calls: RECENT_CALLS });
      const mapping = boardMapping as ViewMapping | null;
      // The columns' titles are monday's to tell; without them the view shows the ids.
      let board: { name: string; columns: Array<{ id: string; title: string; type: string }> } | null = null;
      if (mapping) {
        board = await runOperation(ctx, BoardViewOperations.board, { boardId: mapping.boardId })
          .then((answer) => answer.mondayBoard)
          .catch(() => null);
      }
      send(
        res,
        200,
        BoardViewPage({
          mondayAccountId: mondayLink?.mondayAccountId ?? mondayAccountId,
          mapping,
          boardName: board?.name ?? null,
          columns: new Map((board?.columns ?? []).map((c) => [c.id, c])),
          sessionToken: token as string,
        }),
      );
    } catch (error) {
      next(error);
    }
  });
  return router;
}
