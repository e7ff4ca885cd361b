-- A Vapi or Retell call whose final report never came is no longer given up blindly: the
-- dialer's sweep asks the provider for the call (src/jobs/provider-report-recovery.ts).
-- "reportAskedAt" is when it last did: a lease, so that several dialers on one database never
-- ask about one call at once, and the pace at which a call still in flight is asked again.
ALTER TABLE "Call" ADD COLUMN "reportAskedAt" TIMESTAMPTZ(3);
