// The pure parts of a workflow's results: the duration histogram's buckets and percentiles, and
// the migration's backfill repeating the rules' lists (buckets, reached and connected results).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONNECTED_RESULTS,
  DURATION_BUCKETS,
  durationBucket,
  histogramQuantile,
  REACHED_RESULTS,
} from '../../src/domain/workflows/workflow-results.rules.js';

const MIGRATION = fs.readFileSync('prisma/migrations/20261204000000_workflow_results/migration.sql', 'utf8');

describe('workflow results rules', () => {
  it('puts each duration in the last bucket whose lower bound it reaches', () => {
    expect(DURATION_BUCKETS).toHaveLength(64);
    expect(durationBucket(0)).toBe(1);
    expect(durationBucket(4)).toBe(1);
    expect(durationBucket(5)).toBe(2);
    expect(DURATION_BUCKETS[durationBucket(119) - 1]).toBe(115);
    expect(DURATION_BUCKETS[durationBucket(134) - 1]).toBe(120);
    expect(DURATION_BUCKETS[durationBucket(210) - 1]).toBe(210);
    expect(durationBucket(100_000)).toBe(64);
  });

  it('answers a percentile as percentile_disc would pick it, as its bucket’s lower bound', () => {
    const histogram = (durations: number[]) => {
      const counts = new Array(64).fill(0);
      for (const d of durations) counts[durationBucket(d) - 1]++;
      return counts;
    };
    expect(histogramQuantile(histogram([60, 120, 210]), 0.5)).toBe(120);
    expect(histogramQuantile(histogram([60, 120, 210]), 0.9)).toBe(210);
    expect(histogramQuantile(histogram([10, 10, 10, 300]), 0.5)).toBe(10);
    expect(histogramQuantile(histogram([]), 0.5)).toBeNull();
  });

  it('the migration backfills with the same buckets and result lists', () => {
    const arrays = [...MIGRATION.matchAll(/ARRAY\[([^\]]+)\]/g)].map((m) =>
      m[1].split(',').map((item) => item.trim().replace(/^'|'$/g, '')),
    );
    expect(arrays).toContainEqual(DURATION_BUCKETS.map(String));
    expect(arrays).toContainEqual([...REACHED_RESULTS]);
    expect(arrays).toContainEqual([...CONNECTED_RESULTS]);
  });
});
