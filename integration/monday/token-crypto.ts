// Encryption at rest for monday access tokens: the service's secret box (AES-256-GCM) with the
// key in MONDAY_TOKEN_KEY.
import { decryptSecret, encryptSecret, parseSecretKey } from '../../src/domain/shared/secret-box.js';

export const parseTokenKey = (base64: string): Buffer => parseSecretKey(base64, 'MONDAY_TOKEN_KEY');
export const encryptToken = encryptSecret;
/** Throws when the value was not encrypted with this key (or was altered). */
export const decryptToken = decryptSecret;
