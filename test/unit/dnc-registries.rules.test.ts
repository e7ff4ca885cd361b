// The pure rules of registry files: how a line is read for each kind of registry, and the two
// stored forms of a block (a bitmap, or 2-byte codes) read back as they were written.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BITMAP_BYTES,
  decodeBlock,
  encodeBlock,
  MAX_CODES,
  mergeOffsets,
  readRegistryLine,
  registryScope,
} from '../../src/domain/calling-rules/dnc-registries.rules.js';

describe('readRegistryLine', () => {
  it('reads the +1 forms as ten digits, skips blanks and comments', () => {
    for (const line of [
      '4155550123',
      ' 415,5550123\r',
      '(415) 555-0123',
      '415.555.0123',
      '+1 415 555 0123',
      '14155550123',
    ])
      expect(readRegistryLine('us_national', line), line).toEqual({ kind: 'number', digits: '14155550123' });
    expect(readRegistryLine('ca_national', '4165550123')).toEqual({ kind: 'number', digits: '14165550123' });
    for (const line of ['', '   ', '# header', '#4155550123'])
      expect(readRegistryLine('us_national', line)).toEqual({ kind: 'skip' });
  });

  it('refuses what is not a NANP number', () => {
    for (const line of [
      '415555012',
      '415555012345',
      '1155550123',
      '4111550123',
      '4150550123',
      'four',
      '415+5550123',
      '9'.repeat(65),
    ])
      expect(readRegistryLine('us_national', line).kind, line).toBe('malformed');
  });

  it("reads other registries' numbers in national and international form, of their country only", () => {
    const fr = ['06 12 34 56 78', '+33 6 12 34 56 78', '0033612345678', '33612345678'];
    for (const line of fr)
      expect(readRegistryLine('fr_bloctel', line), line).toEqual({ kind: 'number', digits: '33612345678' });
    expect(readRegistryLine('gb_tps', '020 7946 0958')).toEqual({ kind: 'number', digits: '442079460958' });
    expect(readRegistryLine('es_robinson', '612 345 678')).toEqual({ kind: 'number', digits: '34612345678' });
    expect(readRegistryLine('fr_bloctel', '+44 20 7946 0958').kind).toBe('malformed');
    expect(readRegistryLine('gb_tps', '12').kind).toBe('malformed');
  });

  it('scopes a +1 number by its area code, any other by the whole registry', () => {
    expect(registryScope('us_national', '+14155550123')).toBe('415');
    expect(registryScope('fr_bloctel', '+33612345678')).toBe('*');
  });
});

describe('blocks', () => {
  it('stores up to MAX_CODES numbers as 2-byte codes, more as the bitmap, and reads both back', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 9999 }), { maxLength: 1500 }), (offsets) => {
        const sorted = [...offsets].sort((a, b) => a - b);
        const stored = encodeBlock(sorted);
        expect(stored.length).toBe(sorted.length > MAX_CODES ? BITMAP_BYTES : sorted.length * 2);
        expect(decodeBlock(stored)).toEqual(sorted);
      }),
    );
  });

  it('a code is found only at a code’s start', () => {
    // 0x80|hi, lo: a lo byte never has the high bit, so a search cannot match across two codes.
    const stored = encodeBlock([0x7f, 0x80]);
    for (let n = 0; n < 10_000; n++) {
      const code = Buffer.from([0x80 | (n >> 7), n & 0x7f]);
      const at = stored.indexOf(code);
      expect(at >= 0 ? at % 2 : 0, String(n)).toBe(0);
      expect(at >= 0, String(n)).toBe(n === 0x7f || n === 0x80);
    }
  });

  it('merges offset lists sorted, without repeats', () => {
    expect([...mergeOffsets([5, 1, 5], [3, 1])]).toEqual([1, 3, 5]);
  });
});
