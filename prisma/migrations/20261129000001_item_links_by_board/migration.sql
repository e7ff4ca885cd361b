-- The board view lists the recent calls of one board's items: its linked contacts are found by
-- Account and board, not by scanning every Account's links.
CREATE INDEX "MondayItemLink_accountId_boardId_idx" ON "MondayItemLink" ("accountId", "boardId");
