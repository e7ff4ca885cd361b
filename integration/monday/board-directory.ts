// The domain's BoardDirectory port, served by monday's API with the Account's stored OAuth token
// (monday sends a short-lived token only with its own requests; outside one, the stored token
// is all there is). The domain reads the link; this adapter decrypts its token and asks monday.
import type { BoardDirectory } from '../../src/domain/context.js';
import { DomainError } from '../../src/domain/errors.js';
import type { MondayConfig } from './config.js';
import { mondayApi, MondayApiFailure } from './monday-api.js';
import { decryptToken } from './token-crypto.js';

export function mondayBoardDirectory(config: MondayConfig): BoardDirectory {
  return {
    async board(link, boardId) {
      if (!config.tokenKey)
        throw new DomainError(
          'unavailable',
          'MONDAY_TOKEN_KEY is not set on this service: the stored monday token cannot be read',
        );
      let token: string;
      try {
        token = decryptToken(link.accessTokenEncrypted, config.tokenKey);
      } catch {
        throw new DomainError(
          'bad_request',
          'The stored monday token cannot be read (MONDAY_TOKEN_KEY changed?): install the board app again',
        );
      }
      try {
        return await mondayApi(config, token).readBoard(boardId);
      } catch (error) {
        if (!(error instanceof MondayApiFailure)) throw error;
        if (error.kind === 'not_found') return null;
        if (error.kind === 'unauthorized')
          throw new DomainError(
            'bad_request',
            "monday refused the linked account's token (app uninstalled?): install the board app again",
          );
        throw new DomainError('unavailable', `monday's API failed: ${error.message}`);
      }
    },
  };
}
