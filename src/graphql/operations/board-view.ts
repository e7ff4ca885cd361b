// The GraphQL operations of the board app's board view (integration/monday/views/): what monday
// shows inside a board for the linked Account, read-only.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

export const BoardViewOperations = {
  view: defineOperation(
    graphql(`query ($calls: Int) {
      mondayLink { mondayAccountId createdAt }
      boardMapping {
        boardId firstNameColumnId lastNameColumnId itemNameIsFullName phoneColumnId timezoneColumnId
        extraFields statusLabels statusLabelsCustomized updatedAt
        recentCalls(limit: $calls) { callId itemId contactName status result startedAt durationSeconds }
      }
    }`),
  ),
  board: defineOperation(
    graphql(`query ($boardId: String!) { mondayBoard(boardId: $boardId) { id name columns { id title type } } }`),
  ),
};
