import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STATUS_LABELS,
  labelForResult,
  validateStatusLabelMapping,
} from '../../../src/domain/boards/status-labels.js';
import { decryptToken, encryptToken, parseTokenKey } from '../../../integration/monday/token-crypto.js';
import { CALL_RESULTS } from '../../../src/calls/telephony/telephony.port.js';

describe('call result → status label', () => {
  it('maps every call result to a default label (converted → Booked, …)', () => {
    expect(Object.keys(DEFAULT_STATUS_LABELS).sort()).toEqual([...CALL_RESULTS].sort());
    expect(labelForResult('converted', null)).toBe('Booked');
    for (const r of ['disqualified', 'wrong_language'] as const) expect(labelForResult(r, null)).toBe('Unqualified');
    for (const r of ['not_interested', 'do_not_call'] as const) expect(labelForResult(r, null)).toBe('Not interested');
    for (const r of [
      'answered',
      'contact_verified',
      'identified',
      'qualified',
      'callback_requested',
      'neutral_value_call',
    ] as const)
      expect(labelForResult(r, null)).toBe('Answered');
    for (const r of ['busy', 'human_busy'] as const) expect(labelForResult(r, null)).toBe('Busy');
    for (const r of [
      'no_answer',
      'voicemail',
      'ivr',
      'invalid_number',
      'wrong_number',
      'carrier_blocked',
      'unknown',
      'new',
    ] as const)
      expect(labelForResult(r, null)).toBeNull();
  });

  it('lets an Account override entries, including mapping to nothing', () => {
    const mapping = { converted: 'Meeting set', busy: null, voicemail: 'Left message' };
    expect(labelForResult('converted', mapping)).toBe('Meeting set');
    expect(labelForResult('busy', mapping)).toBeNull();
    expect(labelForResult('voicemail', mapping)).toBe('Left message');
    expect(labelForResult('answered', mapping)).toBe('Answered');
  });

  it.each([
    [[]],
    [null],
    [{ teleported: 'x' }],
    [{ converted: '' }],
    [{ converted: 'x'.repeat(256) }],
    [{ converted: 3 }],
  ])('refuses %j', (input) => {
    expect(validateStatusLabelMapping(input).ok).toBe(false);
  });
});

describe('token encryption', () => {
  const key = parseTokenKey(randomBytes(32).toString('base64'));
  it('round-trips and never stores the token in clear', () => {
    const stored = encryptToken('monday-access-token', key);
    expect(stored).not.toContain('monday-access-token');
    expect(encryptToken('monday-access-token', key)).not.toBe(stored);
    expect(decryptToken(stored, key)).toBe('monday-access-token');
  });
  it('refuses another key, an altered value and a bad key size', () => {
    const stored = encryptToken('t', key);
    expect(() => decryptToken(stored, parseTokenKey(randomBytes(32).toString('base64')))).toThrow();
    // One bit of the ciphertext flipped (writing over its last characters left it unchanged
    // once in 256 runs: a one-byte ciphertext can already encode as "AA").
    const [version, nonce, tag, ciphertext] = stored.split('.');
    const altered = Buffer.from(ciphertext, 'base64url');
    altered[0] ^= 1;
    expect(() => decryptToken([version, nonce, tag, altered.toString('base64url')].join('.'), key)).toThrow();
    expect(() => parseTokenKey(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
