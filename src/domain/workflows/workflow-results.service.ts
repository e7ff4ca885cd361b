// A workflow's results over a window (GET /api/v1/workflows/{id}/results, GraphQL
// workflowResults, the MCP tool workflow_results_get): contacts enrolled, attempted, reached
// and converted, each call result's count, the calls per day (in a given time zone) by result,
// the connect and conversion rates, the connected calls' median and p90 durations, and the
// attempts per converted contact; per agent with groupBy=agent. Definitions: docs/campaigns.md,
// "Workflow results"; why roll-ups, and how erased contacts count: docs/decisions/0039-workflow-results.md.
import { z } from 'zod';
import { CALL_RESULTS } from '../../calls/telephony/telephony.port.js';
import { canonicalTimezone } from '../../normalize/timezone.js';
import { heavyReads } from '../shared/heavy-reads.js';
import type { RequestContext } from '../context.js';
import { requireActor } from '../context.js';
import { badRequestFor } from '../errors.js';
import { parseInput } from '../shared/validation.js';
import { accountWorkflow } from './workflows.service.js';
import { windowAggregates, type GroupAggregates } from './workflow-results.store.js';
import { CONNECTED_RESULTS, DURATION_BUCKETS, histogramQuantile, NO_AGENT, rate } from './workflow-results.rules.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The longest window: a year and a day (a leap year's days in any zone). */
export const MAX_WINDOW_DAYS = 367;
/** The window when none is given: the 30 days before now. */
export const DEFAULT_WINDOW_DAYS = 30;
export const RESULTS_GROUPINGS = ['day', 'agent'] as const;
/** The 21 call results, in the order every results list follows. */
export const RESULT_NAMES = CALL_RESULTS;

const Instant = z.iso.datetime({ offset: true });

/** The query of GET /api/v1/workflows/{id}/results (printed into schema/openapi.json). */
export const WorkflowResultsQuerySchema = z.object({
  from: Instant.optional().describe(
    'Calls placed (and enrollments started) at or after this instant; default: 30 days before `to`',
  ),
  to: Instant.optional().describe('… and before this instant; default: now'),
  groupBy: z
    .enum(RESULTS_GROUPINGS)
    .default('day')
    .describe('day: the calls per day by result (`days`); agent: the same figures per agent (`agents`)'),
  timeZone: z.string().max(64).default('UTC').describe('The IANA time zone whose days `days` counts in (default UTC)'),
});

export interface ResultCount {
  result: string;
  count: number;
}

export interface ResultFigures {
  /** Enrollments of the workflow started in the window; null per agent (an enrollment has no agent). */
  enrolled: number | null;
  attempted: number;
  reached: number;
  converted: number;
  calls: number;
  connected: number;
  connectRate: number | null;
  conversionRate: number | null;
  durationMedianSeconds: number | null;
  durationP90Seconds: number | null;
  attemptsPerConversion: number | null;
  /** Every one of the 21 results, in CALL_RESULTS order, with its count (0 included). */
  results: ResultCount[];
}

export interface WorkflowResults {
  workflowId: string;
  from: Date;
  to: Date;
  timeZone: string;
  groupBy: (typeof RESULTS_GROUPINGS)[number];
  /** The whole workflow's figures: `enrolled` is always counted here. */
  totals: ResultFigures & { enrolled: number };
  days: Array<{ date: string; calls: number; results: ResultCount[] }>;
  agents: Array<{ agentId: string | null; figures: ResultFigures }>;
}

/** Counts by result in CALL_RESULTS order; `all`: every result, zeros included (else only those counted). */
function resultList(counts: Record<string, number>, all: boolean): ResultCount[] {
  return CALL_RESULTS.map((result) => ({ result, count: counts[result] ?? 0 })).filter((r) => all || r.count > 0);
}

function figuresOf<Enrolled extends number | null>(
  group: GroupAggregates | undefined,
  enrolled: Enrolled,
): ResultFigures & { enrolled: Enrolled } {
  const g = group ?? {
    calls: 0,
    connected: 0,
    attempted: 0,
    reached: 0,
    converted: 0,
    convertedCalls: 0,
    durations: null,
    results: {},
  };
  return {
    enrolled,
    attempted: g.attempted,
    reached: g.reached,
    converted: g.converted,
    calls: g.calls,
    connected: g.connected,
    connectRate: rate(g.connected, g.calls),
    conversionRate: rate(g.converted, g.attempted),
    durationMedianSeconds: g.durations ? histogramQuantile(g.durations, 0.5) : null,
    durationP90Seconds: g.durations ? histogramQuantile(g.durations, 0.9) : null,
    attemptsPerConversion: rate(g.convertedCalls, g.converted),
    results: resultList(g.results, true),
  };
}

/**
 * The results of one workflow of the key's Account. 400 for a bad query (from not before to, a
 * window over MAX_WINDOW_DAYS, an unknown groupBy or time zone); 404 for an unknown workflow
 * or another Account's.
 */
export async function workflowResults(
  ctx: RequestContext,
  workflowId: string,
  query: unknown,
): Promise<WorkflowResults> {
  const { accountId } = requireActor(ctx);
  const q = parseInput(WorkflowResultsQuerySchema, query);
  const timeZone = canonicalTimezone(q.timeZone);
  if (!timeZone)
    throw badRequestFor([{ path: 'timeZone', message: 'must be an IANA time zone, such as America/Chicago' }]);
  const sentTo = q.to ? new Date(q.to) : ctx.clock.now();
  const sentFrom = q.from ? new Date(q.from) : new Date(sentTo.getTime() - DEFAULT_WINDOW_DAYS * DAY_MS);
  if (sentFrom.getTime() >= sentTo.getTime()) throw badRequestFor([{ path: 'to', message: 'must be after from' }]);
  // The roll-ups are hourly: the window widens to whole UTC hours (the answer says which).
  const from = new Date(Math.floor(sentFrom.getTime() / HOUR_MS) * HOUR_MS);
  const to = new Date(Math.ceil(sentTo.getTime() / HOUR_MS) * HOUR_MS);
  if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS)
    throw badRequestFor([{ path: 'from', message: `the window is at most ${MAX_WINDOW_DAYS} days` }]);
  const workflow = await accountWorkflow(ctx, workflowId, 'id');

  // The workflow above is read on the primary (an id); its figures on the read replica when there is one.
  const db = heavyReads(ctx);
  const window = { accountId, workflowId: workflow.id, from, to, timeZone };
  const sets = { connected: CONNECTED_RESULTS, buckets: DURATION_BUCKETS.length };
  const byAgent = q.groupBy === 'agent';
  const [whole, agents] = await Promise.all([
    windowAggregates(db, window, { ...sets, byAgent: false, withDays: !byAgent }),
    byAgent ? windowAggregates(db, window, { ...sets, byAgent: true, withDays: false }) : null,
  ]);
  return {
    workflowId: workflow.id,
    from,
    to,
    timeZone,
    groupBy: q.groupBy,
    totals: figuresOf(whole.groups[0], whole.enrolled),
    days: whole.days.map((d) => ({ date: d.date, calls: d.calls, results: resultList(d.results, false) })),
    agents: (agents?.groups ?? []).map((g) => ({
      agentId: g.key === NO_AGENT ? null : g.key,
      figures: figuresOf(g, null),
    })),
  };
}
