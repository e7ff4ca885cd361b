// Provider event signatures: HMAC-SHA256 over "<t>.<raw body>", timestamp tolerance, rotation.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOLERANCE_SECONDS,
  MAX_SIGNATURES,
  SIGNATURE_HEADER,
  parseSignatureHeader,
  signEvent,
  verifySignature,
} from '../../../src/calls/telephony/signature.js';

const SECRET = 'whsec_current_0123456789';
const OLD_SECRET = 'whsec_previous_9876543210';
const now = new Date('2026-11-22T10:00:00.000Z');
const t = Math.floor(now.getTime() / 1000);
const body = JSON.stringify({
  type: 'call.started',
  eventId: 'call-1:started',
  callId: 'call-1',
  occurredAt: '2026-11-22T10:00:00.000Z',
});

describe('signEvent', () => {
  it('produces t and a hex HMAC of "<t>.<body>"', () => {
    const expected = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
    expect(signEvent(body, SECRET, t)).toBe(`t=${t},v1=${expected}`);
    expect(SIGNATURE_HEADER).toBe('x-contactline-signature');
  });

  it('gives one v1 per secret during a rotation', () => {
    const header = signEvent(body, [SECRET, OLD_SECRET], t);
    expect(header.split(',')).toHaveLength(3);
    expect(header).toContain(signEvent(body, SECRET, t).split(',')[1]);
    expect(header).toContain(signEvent(body, OLD_SECRET, t).split(',')[1]);
  });

  it('rejects bad timestamps and secrets', () => {
    expect(() => signEvent(body, SECRET, 1.5)).toThrow(TypeError);
    expect(() => signEvent(body, SECRET, -1)).toThrow(TypeError);
    expect(() => signEvent(body, '', t)).toThrow(TypeError);
    expect(() => signEvent(body, [], t)).toThrow(TypeError);
  });
});

describe('verifySignature', () => {
  it('accepts its own signature (round trip), string or Buffer body', () => {
    const header = signEvent(body, SECRET, t);
    expect(verifySignature(body, header, [SECRET], now)).toEqual({ ok: true, timestamp: t });
    expect(verifySignature(Buffer.from(body), header, [SECRET], now)).toEqual({ ok: true, timestamp: t });
  });

  it('signs and verifies the exact bytes, including non-ASCII text', () => {
    const text = JSON.stringify({ content: 'Perdón, שלום, 😀' });
    const header = signEvent(Buffer.from(text, 'utf8'), SECRET, t);
    expect(verifySignature(text, header, [SECRET], now).ok).toBe(true);
  });

  it('rejects a wrong secret', () => {
    expect(verifySignature(body, signEvent(body, 'another-secret', t), [SECRET], now)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('rejects a tampered body', () => {
    const header = signEvent(body, SECRET, t);
    expect(verifySignature(body.replace('call-1:started', 'call-2:started'), header, [SECRET], now)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifySignature(`${body} `, header, [SECRET], now)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('rejects a changed timestamp (the timestamp is signed)', () => {
    const [, v1] = signEvent(body, SECRET, t).split(',');
    expect(verifySignature(body, `t=${t + 1},${v1}`, [SECRET], now)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('accepts timestamps inside the tolerance, either direction', () => {
    for (const offset of [-DEFAULT_TOLERANCE_SECONDS, -1, 0, 1, DEFAULT_TOLERANCE_SECONDS]) {
      expect(verifySignature(body, signEvent(body, SECRET, t + offset), [SECRET], now)).toEqual({
        ok: true,
        timestamp: t + offset,
      });
    }
  });

  it.each([
    ['stale', -DEFAULT_TOLERANCE_SECONDS - 1],
    ['from the future', DEFAULT_TOLERANCE_SECONDS + 1],
    ['very old', -86_400],
  ])('rejects a timestamp %s', (_name, offset) => {
    expect(verifySignature(body, signEvent(body, SECRET, t + offset), [SECRET], now)).toEqual({
      ok: false,
      reason: 'stale',
    });
  });

  it('uses a custom tolerance', () => {
    const header = signEvent(body, SECRET, t - 30);
    expect(verifySignature(body, header, [SECRET], now, 10)).toEqual({ ok: false, reason: 'stale' });
    expect(verifySignature(body, header, [SECRET], now, 30).ok).toBe(true);
  });

  it.each([undefined, '', '   '])('reports a missing header (%j)', (header) => {
    expect(verifySignature(body, header, [SECRET], now)).toEqual({ ok: false, reason: 'missing' });
  });

  const v1 = signEvent(body, SECRET, t).split(',')[1];
  it.each([
    ['no t', v1],
    ['no v1', `t=${t}`],
    ['not key=value', 'garbage'],
    ['empty part', `t=${t},,${v1}`],
    ['two t', `t=${t},t=${t},${v1}`],
    ['non-numeric t', `t=abc,${v1}`],
    ['negative t', `t=-${t},${v1}`],
    ['fractional t', `t=${t}.5,${v1}`],
    ['short v1', `t=${t},v1=abcd`],
    ['non-hex v1', `t=${t},v1=${'z'.repeat(64)}`],
    ['v1 too long', `t=${t},${v1}00`],
    ['too many v1', [`t=${t}`, ...Array.from({ length: MAX_SIGNATURES + 1 }, () => v1)].join(',')],
    ['far too long', `t=${t},${v1},x=${'a'.repeat(5000)}`],
    ['bearer token', 'Bearer abc'],
  ])('reports a malformed header: %s', (_name, header) => {
    expect(verifySignature(body, header, [SECRET], now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('tolerates spaces, uppercase hex, other schemes and any part order', () => {
    const hex = v1.slice(3);
    expect(verifySignature(body, ` v0=legacy , v1=${hex.toUpperCase()} , t=${t} `, [SECRET], now)).toEqual({
      ok: true,
      timestamp: t,
    });
  });

  describe('secret rotation', () => {
    it('accepts a signature made with any configured secret', () => {
      expect(verifySignature(body, signEvent(body, OLD_SECRET, t), [SECRET, OLD_SECRET], now).ok).toBe(true);
      expect(verifySignature(body, signEvent(body, SECRET, t), [SECRET, OLD_SECRET], now).ok).toBe(true);
    });

    it('accepts a header with two v1 values when the receiver knows only one secret', () => {
      const header = signEvent(body, [OLD_SECRET, SECRET], t);
      expect(verifySignature(body, header, [SECRET], now).ok).toBe(true);
      expect(verifySignature(body, header, [OLD_SECRET], now).ok).toBe(true);
    });

    it('rejects once the old secret is retired', () => {
      expect(verifySignature(body, signEvent(body, OLD_SECRET, t), [SECRET], now)).toEqual({
        ok: false,
        reason: 'mismatch',
      });
    });

    it('rejects when no v1 matches any secret', () => {
      const header = signEvent(body, ['x-secret', 'y-secret'], t);
      expect(verifySignature(body, header, [SECRET, OLD_SECRET], now)).toEqual({ ok: false, reason: 'mismatch' });
    });
  });

  it('treats an empty secret list as a configuration error', () => {
    expect(() => verifySignature(body, signEvent(body, SECRET, t), [], now)).toThrow(TypeError);
    expect(() => verifySignature(body, signEvent(body, SECRET, t), [''], now)).toThrow(TypeError);
  });
});

describe('parseSignatureHeader', () => {
  it('returns the timestamp and the signatures', () => {
    const parsed = parseSignatureHeader(signEvent(body, [SECRET, OLD_SECRET], t));
    expect(parsed?.timestamp).toBe(t);
    expect(parsed?.signatures.map((s) => s.length)).toEqual([32, 32]);
  });
});
