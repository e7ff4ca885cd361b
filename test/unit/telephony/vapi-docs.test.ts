// docs/calls-vapi.md (the Vapi page of the calls guide) shows the analysis schema to paste into Vapi:
// it must be the one the adapter reads, and its result table must follow the adapter's rules.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ANALYSIS_OUTCOMES,
  ANALYSIS_OUTPUT_NAME,
  ANALYSIS_SCHEMA,
} from '../../../src/calls/telephony/vapi/analysis.js';
import { ENDED_REASON_RULES } from '../../../src/calls/telephony/vapi/ended-reasons.js';

const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/calls-vapi.md'), 'utf8');

describe('docs/calls-vapi.md', () => {
  it('shows the exact analysis schema and structured output name', () => {
    expect(doc).toContain(`\`\`\`json\n${JSON.stringify(ANALYSIS_SCHEMA, null, 2)}\n\`\`\``);
    expect(doc).toContain(`**Name**: \`${ANALYSIS_OUTPUT_NAME}\``);
  });

  it('maps every analysis outcome in its result table', () => {
    const table = doc.slice(doc.indexOf('| Analysis `outcome` |'));
    for (const outcome of ANALYSIS_OUTCOMES) expect(table, outcome).toContain(`\`${outcome}\``);
  });

  it('has one row per ended-reason rule, in order', () => {
    const rows = doc.split('\n').filter((line) => /^\| \d+ \| /.test(line));
    expect(rows.map((row) => Number(row.split('|')[1]))).toEqual(ENDED_REASON_RULES.map((_, i) => i + 1));
  });

  it('stands alone (no paths outside the repository)', () => {
    expect(doc).not.toMatch(/\/work\/|shared\/reference/);
  });
});
