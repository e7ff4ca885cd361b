-- The dialer's sweep for calls the provider never reported on: only open calls are indexed.
CREATE INDEX "Call_open_idx" ON "Call" ("status", "createdAt") WHERE "status" IN ('queued', 'ringing', 'in_progress');
