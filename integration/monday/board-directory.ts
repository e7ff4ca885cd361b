// The domain's BoardDirectory port, served by monday's API with the Account's stored OAuth token
// (monday sends a short-lived token only with its own requests; outside one, the stored token
// is all there is). The domain reads the link; this adapter decrypts its token and asks monday.
import type { BoardDirectory } from '../../src/domain/context.js';
import { DomainError } from '../../src/domain/errors.js';
import type { MondayConfig } from './config.js';
import { mondayApi, MondayApiFailure } from './monday-api.js';
import { decryptToken } from './token-crypto.js';

export function mondayBoardDirectory(config: MondayConfig): BoardDirectory {
  /** The link's token in clear, or the reason it cannot be used. */
  const tokenOf = (link: { accessTokenEncrypted: string }): string => {
    if (!config.tokenKey)
      throw new DomainError(
        'unavailable',
        'MONDAY_TOKEN_KEY is not set on this service: the stored monday token cannot be read',
      );
    try {
      return decryptToken(link.accessTokenEncrypted, config.tokenKey);
    } catch {
      throw new DomainError(
        'bad_request',
        'The stored monday token cannot be read (MONDAY_TOKEN_KEY changed?): install the board app again',
      );
    }
  };
  /** monday's failures in the domain's terms (a missing board is the caller's null). */
  const refusal = (error: unknown): never => {
    if (!(error instanceof MondayApiFailure)) throw error;
    if (error.kind === 'unauthorized')
      throw new DomainError(
        'bad_request',
        "monday refused the linked account's token (app uninstalled?): install the board app again",
      );
    throw new DomainError('unavailable', `monday's API failed: ${error.message}`);
  };
  return {
    async board(link, boardId) {
      const api = mondayApi(config, tokenOf(link));
      try {
        return await api.readBoard(boardId);
      } catch (error) {
        if (error instanceof MondayApiFailure && error.kind === 'not_found') return null;
        return refusal(error);
      }
    },
    async boards(link, { limit, page }) {
      const api = mondayApi(config, tokenOf(link));
      try {
        return await api.listBoards(limit, page);
      } catch (error) {
        return refusal(error);
      }
    },
  };
}
