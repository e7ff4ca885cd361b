// The Board app page: the Account's monday link (linked through monday's OAuth from here, or
// unlinked), the board to map and its columns, and the call result → status label mapping.
// Every read and change is a GraphQL operation of the domain (operations/console-board.ts),
// the same ones the board app's GraphQL users run, so the same rules refuse the same input.
import type { Request, Response, Router } from 'express';
import type { DomainError } from '../../domain/errors.js';
import { asDomainError } from '../../domain/errors.js';
import { runOperation } from '../../graphql/execute.js';
import { ConsoleBoardOperations as Ops } from '../../graphql/operations/console-board.js';
import { CONSOLE_CSP, type ConsoleKit, formField, type Signed, send } from '../console-kit.js';
import {
  type BoardList,
  BoardPage,
  type BoardPageProps,
  type BoardView,
  type LinkView,
  type MappingValues,
  type MappingView,
} from '../pages/board.js';

/** What a finished change says once the page reloads (?done=…): fixed sentences, nothing echoed. */
const DONE: Record<string, string> = {
  linked: 'Your monday account is linked. Choose the board to map below.',
  mapping: 'The mapping is saved.',
  labels: 'The status labels are saved.',
  unlinked: 'is unlinked: its automations stop reaching Contactline. The mapping is kept for a later link.',
  'nothing-linked': 'No monday account was linked.',
};

/** The notice of ?done=…; an unlink names the monday account it unlinked (a monday id, nothing else). */
function doneNotice(req: Request): string | undefined {
  const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
  if (req.query.done !== 'unlinked' || !done) return done;
  const account = mondayId(req.query.mondayAccount);
  return account ? `monday account ${account} ${done}` : `The monday account ${done}`;
}

/** Only a monday id is carried through a query string. */
const mondayId = (value: unknown): string | null =>
  typeof value === 'string' && /^\d{1,20}$/.test(value) ? value : null;
const columnId = (value: unknown): string | null =>
  typeof value === 'string' && /^[\w-]{1,100}$/.test(value) ? value : null;

/** The errors a refusal names by field (its issues' paths without the `input.` prefix); the rest is for the whole page. */
function errorsByField(error: DomainError, fields: string[]): { errors: Record<string, string>; alert?: string } {
  const issues = (error.details.issues ?? []) as Array<{ path?: unknown; message?: unknown }>;
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = typeof issue.path === 'string' ? issue.path.replace(/^input\./, '').split(/[.[]/)[0] : '';
    if (fields.includes(field) && typeof issue.message === 'string' && !errors[field]) errors[field] = issue.message;
  }
  if (Object.keys(errors).length > 0) return { errors };
  const named = fields.find(
    (field) => error.message.startsWith(`input.${field}:`) || error.message.startsWith(`${field}:`),
  );
  if (named) return { errors: { [named]: error.message.replace(/^(input\.)?\w+:\s*/, '') } };
  return { errors: {}, alert: error.message };
}

/** The refusals a page shows (a 4xx, or monday / the set-up unavailable); anything else is a 500. */
function shownRefusal(error: unknown): DomainError | null {
  const failure = asDomainError(error);
  return failure && (failure.status < 500 || failure.code === 'unavailable') ? failure : null;
}

export function boardRoutes(router: Router, { services, withSession, viewerOf }: ConsoleKit): void {
  /** The page's CSP: its Link form leads (through our redirect) to monday's OAuth pages. */
  const headers = (): Record<string, string> => {
    const monday = services.mondayAuthorization?.authorizeOrigin;
    return monday
      ? { 'content-security-policy': CONSOLE_CSP.replace("form-action 'self'", `form-action 'self' ${monday}`) }
      : {};
  };

  async function boardPage(
    req: Request,
    res: Response,
    signed: Signed,
    extra: Partial<BoardPageProps> = {},
    status = 200,
  ): Promise<void> {
    const boardAppOn = Boolean(services.boards);
    const { mondayLink, boardMapping } = await runOperation(signed.ctx, Ops.overview, {});
    const link = mondayLink as LinkView | null;
    const mapping = boardMapping as MappingView | null;
    const chosenBoardId = extra.chosenBoardId ?? mondayId(req.query.boardId) ?? mapping?.boardId ?? null;
    const props: BoardPageProps = {
      viewer: viewerOf(signed),
      boardAppOn,
      link,
      mapping,
      boards: null,
      board: null,
      chosenBoardId,
      statusColumnId: columnId(req.query.statusColumnId),
      notice: doneNotice(req),
      ...extra,
    };
    if (boardAppOn && link) {
      // monday is asked for what the page shows; a refusal is shown where the boards would be.
      try {
        const page = Number(req.query.boardPage) || 1;
        props.boards = (await runOperation(signed.ctx, Ops.boards, { page, limit: 50 })).mondayBoards as BoardList;
        if (chosenBoardId)
          props.board = (await runOperation(signed.ctx, Ops.board, { boardId: chosenBoardId }))
            .mondayBoard as BoardView;
      } catch (error) {
        const failure = shownRefusal(error);
        if (!failure) throw error;
        props.alert ??= failure.message;
      }
    }
    send(res, status, BoardPage(props), headers());
  }

  router.get(
    '/board',
    withSession(async (req, res, signed) => boardPage(req, res, signed)),
  );

  router.post(
    '/board/link',
    withSession(async (req, res, signed) => {
      try {
        const { startMondayLink } = await runOperation(signed.ctx, Ops.startLink, {});
        res.redirect(303, startMondayLink.authorizeUrl);
      } catch (error) {
        const failure = shownRefusal(error);
        if (!failure) throw error;
        await boardPage(req, res, signed, { alert: failure.message }, failure.status);
      }
    }),
  );

  // monday sends the browser back here (through the app's registered Redirect URL) with the
  // code and the state startMondayLink signed; the domain checks the state is this session's.
  router.get(
    '/board/oauth/callback',
    withSession(async (req, res, signed) => {
      const text = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : '');
      if (text('error')) {
        const alert = `monday did not approve the link (${(text('error_description') || text('error')).slice(0, 200)}). Nothing was linked; you can start again.`;
        await boardPage(req, res, signed, { alert }, 400);
        return;
      }
      try {
        await runOperation(signed.ctx, Ops.completeLink, { code: text('code'), state: text('state') });
        res.redirect(303, '/console/board?done=linked');
      } catch (error) {
        const failure = shownRefusal(error);
        if (!failure) throw error;
        await boardPage(req, res, signed, { alert: failure.message }, failure.status);
      }
    }),
  );

  router.post(
    '/board/unlink',
    withSession(async (_req, res, signed) => {
      const { unlinkMonday } = await runOperation(signed.ctx, Ops.unlink, {});
      const removed = unlinkMonday.removedLink;
      const query: Record<string, string> = removed
        ? { done: 'unlinked', mondayAccount: String(removed.mondayAccountId) }
        : { done: 'nothing-linked' };
      res.redirect(303, `/console/board?${new URLSearchParams(query)}`);
    }),
  );

  router.post(
    '/board/mapping',
    withSession(async (req, res, signed) => {
      const values: MappingValues = {
        phoneColumnId: formField(req, 'phoneColumnId'),
        firstNameColumnId: formField(req, 'firstNameColumnId'),
        lastNameColumnId: formField(req, 'lastNameColumnId'),
        timezoneColumnId: formField(req, 'timezoneColumnId'),
        itemNameIsFullName: formField(req, 'itemNameIsFullName') === 'true',
      };
      const boardId = formField(req, 'boardId');
      const input = {
        boardId,
        phoneColumnId: values.phoneColumnId || undefined,
        firstNameColumnId: values.firstNameColumnId || null,
        lastNameColumnId: values.lastNameColumnId || null,
        timezoneColumnId: values.timezoneColumnId || null,
        itemNameIsFullName: values.itemNameIsFullName,
      };
      try {
        await runOperation(signed.ctx, Ops.setMapping, { input });
        res.redirect(303, `/console/board?boardId=${encodeURIComponent(boardId)}&done=mapping`);
      } catch (error) {
        const failure = shownRefusal(error);
        if (!failure) throw error;
        const fields = ['boardId', 'phoneColumnId', 'firstNameColumnId', 'lastNameColumnId', 'timezoneColumnId'];
        const { errors, alert } = errorsByField(failure, [...fields, 'itemNameIsFullName']);
        const chosenBoardId = mondayId(boardId);
        await boardPage(req, res, signed, { values, errors, alert, chosenBoardId }, failure.status);
      }
    }),
  );

  router.post(
    '/board/status-labels',
    withSession(async (req, res, signed) => {
      const labelValues: Record<string, string> = {};
      for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
        if (name.startsWith('label_') && typeof value === 'string') labelValues[name.slice('label_'.length)] = value;
      }
      const reset = formField(req, 'reset') === 'true';
      // An empty choice is "leave the status unchanged": null, as the operation takes it.
      const mapping = reset
        ? null
        : Object.fromEntries(Object.entries(labelValues).map(([result, label]) => [result, label || null]));
      const boardId = mondayId(formField(req, 'boardId'));
      const statusColumnId = columnId(formField(req, 'statusColumnId'));
      try {
        await runOperation(signed.ctx, Ops.setStatusLabels, { mapping });
        const query = new URLSearchParams({
          ...(boardId ? { boardId } : {}),
          ...(statusColumnId ? { statusColumnId } : {}),
          done: 'labels',
        });
        res.redirect(303, `/console/board?${query}`);
      } catch (error) {
        const failure = shownRefusal(error);
        if (!failure) throw error;
        // "mapping: the label for busy must be …" names its result: shown next to that picker.
        const result = /the label for (\w+)/.exec(failure.message);
        const field = result ? `label_${result[1]}` : 'mapping';
        const errors = { [field]: failure.message.replace(/^mapping:\s*/, '') };
        await boardPage(
          req,
          res,
          signed,
          { labelValues, errors, chosenBoardId: boardId, statusColumnId },
          failure.status,
        );
      }
    }),
  );
}
