// The GraphQL operations of the console's Board app page (src/console/routes/board.route.ts):
// the Account's monday link (linked, unlinked, linked from the console through monday's OAuth),
// the linked user's boards and a board's columns, and the mapping and status labels the board
// app's GraphQL operations set for everyone else.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

export const ConsoleBoardOperations = {
  overview: defineOperation(
    graphql(`query {
      mondayLink { mondayAccountId mondayUserId linkedByEmail createdAt }
      boardMapping {
        boardId firstNameColumnId lastNameColumnId itemNameIsFullName phoneColumnId timezoneColumnId
        extraFields statusLabels statusLabelsCustomized updatedAt
      }
    }`),
  ),
  boards: defineOperation(
    graphql(`query ($page: Int, $limit: Int) {
      mondayBoards(page: $page, limit: $limit) { data { id name } page nextPage }
    }`),
  ),
  board: defineOperation(
    graphql(`query ($boardId: String!) {
      mondayBoard(boardId: $boardId) { id name columns { id title type mappableAs labels } }
    }`),
  ),
  setMapping: defineOperation(graphql(`mutation ($input: JSON!) { setBoardMapping(input: $input) { boardId } }`)),
  setStatusLabels: defineOperation(
    graphql(`mutation ($mapping: JSON) { setStatusLabels(mapping: $mapping) { boardId statusLabels } }`),
  ),
  startLink: defineOperation(graphql(`mutation { startMondayLink { authorizeUrl } }`)),
  completeLink: defineOperation(
    graphql(`mutation ($code: String!, $state: String!) {
      completeMondayLink(code: $code, state: $state) { mondayAccountId }
    }`),
  ),
  unlink: defineOperation(
    graphql(`mutation { unlinkMonday { removedLink { mondayAccountId } subscriptionsRemoved } }`),
  ),
};
