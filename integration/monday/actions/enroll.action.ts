// "Enroll this item in {workflow}" (README, "Build the recipes"): reads the item's mapped
// columns with the run's short-lived token, upserts the contact (sourceKind monday, externalId
// the item id) and enrolls it, through the same upsert operation as the REST API.
import type { Services } from '../../../src/domain/context.js';
import { columnMappingOf } from '../../../src/domain/boards/board-mapping.service.js';
import type { BoardMapping as BoardMappingRow } from '../../../src/generated/prisma/client.js';
import { mappedColumnIds, mappingProblems, timezoneColumnTypeOf } from '../../../src/domain/boards/board-mapping.rules.js';
import { UUID_PATTERN } from '../../../src/domain/shared/ids.js';
import { runOperation } from '../../../src/graphql/execute.js';
import { Operations } from '../../../src/graphql/operations/index.js';
import { automationBroken, runFailed } from '../action-failure.js';
import type { ActionHandler } from '../action-runs.js';
import type { MondayConfig } from '../config.js';
import { itemContact } from '../item-contact.js';
import { boardAndItem, optionValue } from './fields.js';
import { boardNotMapped, readRunItem } from './run-item.js';

export function enrollAction(services: Services, config: MondayConfig): ActionHandler {
  return async ({ ctx, claims }, { fields }) => {
    const accountId = ctx.actor!.accountId;
    const { boardId, itemId } = boardAndItem(fields);
    const workflowId = optionValue(fields.workflowId);
    if (!workflowId || !UUID_PATTERN.test(workflowId)) {
      throw automationBroken('Choose a workflow', 'The automation has no Contactline workflow chosen: edit it and pick a workflow.', `workflowId: ${JSON.stringify(fields.workflowId ?? null)}`);
    }
    // One round trip for the mapping and the workflow (this runs for every enrolled item).
    const { rows } = await services.db.sql.query<{ mapping: BoardMappingRow | null; workflow: { name: string; status: string; paused: boolean } | null }>(
      `SELECT (SELECT to_jsonb(m) FROM "BoardMapping" m WHERE m."accountId" = $1::uuid) AS mapping,
              (SELECT jsonb_build_object('name', w.name, 'status', w.status, 'paused', w.paused) FROM "Workflow" w WHERE w.id = $2::uuid AND w."accountId" = $1::uuid) AS workflow`,
      [accountId, workflowId],
    );
    const { mapping: mappingRow, workflow } = rows[0];
    if (!workflow || workflow.status !== 'published') {
      const what = workflow ? `Workflow "${workflow.name}" is ${workflow.status}` : 'The chosen workflow no longer exists in Contactline';
      throw automationBroken('Workflow cannot take enrollments', `${what}: publish it or choose another workflow, then turn the automation back on.`, `workflow ${workflowId}: ${workflow?.status ?? 'missing'}`);
    }
    if (workflow.paused) {
      throw runFailed('Workflow is paused', `Workflow "${workflow.name}" is paused in Contactline, so it cannot take new contacts: resume it, then run the automation again.`, `workflow ${workflowId}: paused`);
    }
    if (!mappingRow) {
      throw automationBroken('No board mapped', 'Contactline has no board mapped for this account: map this board\'s columns in Contactline, then turn the automation back on.', 'no BoardMapping');
    }
    if (boardId !== null && boardId !== mappingRow.boardId) throw boardNotMapped(boardId, mappingRow.boardId, `board ${boardId} ≠ mapped ${mappingRow.boardId}`);
    const mapping = columnMappingOf(mappingRow);
    const { item } = await readRunItem(config, claims, itemId, mappedColumnIds(mapping));
    if (item.boardId !== mappingRow.boardId) throw boardNotMapped(item.boardId, mappingRow.boardId, `item board ${item.boardId} ≠ mapped ${mappingRow.boardId}`);
    // The mapping is checked again against the board as it is now (a column may be gone).
    const problems = mappingProblems(mapping, item.boardColumns);
    if (problems.length > 0) {
      throw automationBroken('Column mapping out of date', `The board's columns changed: ${problems.join('; ')}. Update the mapping in Contactline, then turn the automation back on.`, problems.join('; '));
    }
    const built = itemContact(item, mapping, timezoneColumnTypeOf(mapping, item.boardColumns));
    if (!built.ok) {
      throw runFailed(built.reason === 'missing_phone' ? 'Phone number missing' : 'Phone number invalid', built.message, `item ${itemId}: ${built.reason}`);
    }
    const { upsertContact } = await runOperation(ctx, Operations.upsertContact, {
      input: { ...built.contact, sourceKind: 'monday', externalId: item.id, assignmentOptions: { workflowId } },
    });
    const contactId = upsertContact.contact.id;
    await services.db.sql.query(
      `INSERT INTO "MondayItemLink" ("contactId", "accountId", "boardId", "itemId", "updatedAt") VALUES ($1::uuid, $2::uuid, $3, $4, $5)
       ON CONFLICT ("contactId") DO UPDATE SET "boardId" = EXCLUDED."boardId", "itemId" = EXCLUDED."itemId", "updatedAt" = EXCLUDED."updatedAt"`,
      [contactId, accountId, item.boardId, item.id, services.clock.now()],
    );
    return { contactId, workflowId, created: upsertContact.created };
  };
}
