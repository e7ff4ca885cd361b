-- GET /api/v1/workflows/{id}/results reads roll-ups, not the calls: a scan of a million calls
-- cannot answer in 100 ms (docs/decisions/0039-workflow-results.md). Each call's end adds to
-- them in the transaction that records it (call-events.store.ts, writeCallEnded); an erasure
-- leaves them as they are (they name no contact), so erased contacts' calls still count.
--
-- WorkflowResultHour: per workflow, agent (the zero UUID for none), UTC hour of the call's start
-- and result: the calls, and the contacts for which this call was a first: their first call of
-- the workflow (firstCalls), their first call that reached them (firstReached), their first
-- converted call (firstConversions, with the calls up to and including it in convertedAfter).
CREATE TABLE "WorkflowResultHour" (
  "workflowId"       UUID NOT NULL,
  "agentId"          UUID NOT NULL,
  "hour"             TIMESTAMPTZ(3) NOT NULL,
  "result"           TEXT NOT NULL,
  "calls"            INTEGER NOT NULL,
  "firstCalls"       INTEGER NOT NULL,
  "firstReached"     INTEGER NOT NULL,
  "firstConversions" INTEGER NOT NULL,
  "convertedAfter"   INTEGER NOT NULL,
  CONSTRAINT "WorkflowResultHour_pkey" PRIMARY KEY ("workflowId", "hour", "agentId", "result"),
  CONSTRAINT "WorkflowResultHour_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- WorkflowDurationHour: the connected calls' durations per workflow, agent and UTC hour, as a
-- histogram of 64 buckets (src/domain/workflows/workflow-results.rules.ts, DURATION_BUCKETS).
CREATE TABLE "WorkflowDurationHour" (
  "workflowId" UUID NOT NULL,
  "agentId"    UUID NOT NULL,
  "hour"       TIMESTAMPTZ(3) NOT NULL,
  "durations"  INTEGER[] NOT NULL,
  CONSTRAINT "WorkflowDurationHour_pkey" PRIMARY KEY ("workflowId", "hour", "agentId"),
  CONSTRAINT "WorkflowDurationHour_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- WorkflowEnrollmentHour: the enrollments each workflow started per UTC hour (the `enrolled`
-- figure), counted by the statement that starts them (enrollment.store.ts, startEnrollments).
CREATE TABLE "WorkflowEnrollmentHour" (
  "workflowId" UUID NOT NULL,
  "hour"       TIMESTAMPTZ(3) NOT NULL,
  "enrolled"   INTEGER NOT NULL,
  CONSTRAINT "WorkflowEnrollmentHour_pkey" PRIMARY KEY ("workflowId", "hour"),
  CONSTRAINT "WorkflowEnrollmentHour_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Backfill: the roll-ups of the calls already ended (bench/workflow-results.ts runs this same
-- statement after its seed). A contact's calls of a workflow in order (startedAt, id): its first,
-- its first reaching one, its first converted one with how many came before. The reached and
-- connected results are REACHED_RESULTS and CONNECTED_RESULTS of workflow-results.rules.ts.
INSERT INTO "WorkflowResultHour" ("workflowId", "agentId", "hour", "result", "calls", "firstCalls", "firstReached", "firstConversions", "convertedAfter")
SELECT "workflowId", COALESCE("agentId", '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('hour', "startedAt", 'UTC'), "result",
  count(*)::int, count(*) FILTER (WHERE n = 1)::int, count(*) FILTER (WHERE reached AND reached_before = 0)::int,
  count(*) FILTER (WHERE "result" = 'converted' AND converted_before = 0)::int,
  COALESCE(sum(n) FILTER (WHERE "result" = 'converted' AND converted_before = 0), 0)::int
FROM (
  SELECT "workflowId", "agentId", "startedAt", "result", reached,
    row_number() OVER w AS n,
    count(*) FILTER (WHERE reached) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reached_before,
    count(*) FILTER (WHERE "result" = 'converted') OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS converted_before
  FROM (SELECT *, "result" = ANY(ARRAY['converted', 'disqualified', 'wrong_language', 'not_interested', 'do_not_call', 'answered',
      'contact_verified', 'identified', 'qualified', 'callback_requested', 'neutral_value_call']) AS reached
    FROM "Call" WHERE "workflowId" IS NOT NULL AND "result" IS NOT NULL) AS c
  WINDOW w AS (PARTITION BY "workflowId", "contactId" ORDER BY "startedAt", "id")
) AS ordered
GROUP BY 1, 2, 3, 4;

INSERT INTO "WorkflowDurationHour" ("workflowId", "agentId", "hour", "durations")
SELECT "workflowId", "agentId", "hour", array_agg(COALESCE(n, 0) ORDER BY b)::int[]
FROM (
  SELECT k."workflowId", k."agentId", k."hour", b, x.n
  FROM (SELECT DISTINCT "workflowId", COALESCE("agentId", '00000000-0000-0000-0000-000000000000'::uuid) AS "agentId",
      date_trunc('hour', "startedAt", 'UTC') AS "hour"
    FROM "Call" WHERE "workflowId" IS NOT NULL AND "result" = ANY(ARRAY['converted', 'disqualified', 'wrong_language', 'not_interested',
      'do_not_call', 'answered', 'contact_verified', 'identified', 'qualified', 'callback_requested', 'neutral_value_call', 'human_busy', 'wrong_number'])) AS k
  CROSS JOIN generate_series(1, 64) AS b
  LEFT JOIN (
    SELECT "workflowId", COALESCE("agentId", '00000000-0000-0000-0000-000000000000'::uuid) AS "agentId",
      date_trunc('hour', "startedAt", 'UTC') AS "hour",
      -- The bucket of a duration: DURATION_BUCKETS' lower bounds, the last one at most the duration.
      (SELECT count(*) FROM unnest(ARRAY[0,5,10,15,20,25,30,35,40,45,50,55,60,65,70,75,80,85,90,95,100,105,110,115,
        120,135,150,165,180,195,210,225,240,255,270,285,300,330,360,390,420,450,480,510,540,570,
        600,660,720,780,840,900,960,1020,1080,1140,1200,1500,1800,2400,3000,3600,5400,7200]) AS lower(s)
        WHERE lower.s <= COALESCE("durationSeconds", 0))::int AS b,
      count(*)::int AS n
    FROM "Call" WHERE "workflowId" IS NOT NULL AND "result" = ANY(ARRAY['converted', 'disqualified', 'wrong_language', 'not_interested',
      'do_not_call', 'answered', 'contact_verified', 'identified', 'qualified', 'callback_requested', 'neutral_value_call', 'human_busy', 'wrong_number'])
    GROUP BY 1, 2, 3, 4
  ) AS x USING ("workflowId", "agentId", "hour", b)
) AS filled
GROUP BY 1, 2, 3;

INSERT INTO "WorkflowEnrollmentHour" ("workflowId", "hour", "enrolled")
SELECT "workflowId", date_trunc('hour', "createdAt", 'UTC'), count(*)::int FROM "Enrollment" GROUP BY 1, 2;
