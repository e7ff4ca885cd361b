// docs/calls-retell.md (the Retell page of the calls guide) says what the code does: the analysis
// fields to paste are the adapter's own, and the result table has a row for every disconnection
// reason the rules map.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTACTLINE_ANALYSIS_FIELDS } from '../../../src/calls/telephony/retell/analysis.js';
import { DISCONNECTION_REASON_RULES } from '../../../src/calls/telephony/retell/ended-reasons.js';

const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/calls-retell.md'), 'utf8');

describe('docs/calls-retell.md', () => {
  it('gives the analysis fields exactly as the adapter reads them', () => {
    const block = /```json\n([\s\S]*?)\n```/.exec(doc)![1];
    expect(JSON.parse(block)).toEqual(CONTACTLINE_ANALYSIS_FIELDS);
  });

  it('has a result row for every disconnection reason', () => {
    for (const reason of Object.keys(DISCONNECTION_REASON_RULES))
      expect(doc, reason).toMatch(new RegExp(`^\\| \`${reason}\` \\|`, 'm'));
  });

  it('stands alone: no path outside the repository', () => {
    expect(doc).not.toMatch(/\/work\/|shared\/reference/);
  });
});
