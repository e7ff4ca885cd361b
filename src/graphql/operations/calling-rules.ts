// The calling rules' operations REST, the MCP tools and the console run: the calling policy, a
// contact's consents, a contact's dialing decision (by id, or by source kind and external ID),
// and do-not-call registry imports (a staged import a surface streams a file into) and copies.
import { defineOperation } from '../execute.js';
import { graphql } from '../documents.js';

export const CallingPolicyFields = graphql(`fragment CallingPolicyFields on CallingPolicy {
  purpose requireWrittenConsent attemptCap { max periodHours }
  disabledJurisdictions { jurisdiction disabledAt disabledBy }
  legalAttemptCaps { ruleId jurisdiction max periodHours source disabled }
  jurisdictions ruleSetVersion updatedAt updatedBy
}`);

export const ConsentFields = graphql(`fragment ConsentFields on Consent {
  id contactId kind workflowId method evidence obtainedAt createdAt revokedAt revokedBy active
}`);

export const ContactDialingFields = graphql(`fragment ContactDialingFields on ContactDialing {
  contactId callableNow nextCallableAt
  reasons { code message jurisdiction source ruleId until }
  timeZones jurisdictions ruleSetVersion purpose ruleIds
  attempts { ruleId jurisdiction max periodHours counted source }
  consentUsed { id kind }
  enrollment { workflowId agentId attempts dueAt immediate }
}`);

export const DncRegistryImportFields = graphql(`fragment DncRegistryImportFields on DncRegistryImport {
  id registry downloadedAt areaCodes nextLine numbersRead
}`);

export const CallingRuleOperations = {
  listCallAudit: defineOperation(
    graphql(`query ($from: String, $to: String, $limit: Int, $nextToken: String) {
    callAudit(from: $from, to: $to, limit: $limit, nextToken: $nextToken) {
      data { callId contactId workflowId agentId provider placedAt status result ruleSetVersion purpose timeZones
        jurisdictions ruleIds consentId consentKind attemptCounts }
      nextToken
    }
  }`),
  ),
  getCallingPolicy: defineOperation(
    graphql(`query { callingPolicy { ...CallingPolicyFields } }`, [CallingPolicyFields]),
  ),
  setCallingPolicy: defineOperation(
    graphql(`mutation ($input: JSON!) { setCallingPolicy(input: $input) { ...CallingPolicyFields } }`, [
      CallingPolicyFields,
    ]),
  ),
  listCallingPolicyChanges: defineOperation(
    graphql(`query ($limit: Int) { callingPolicyChanges(limit: $limit) { at actor change } }`),
  ),
  listContactConsents: defineOperation(
    graphql(
      `query ($contactId: String, $sourceKind: String, $externalId: String) {
    contactConsents(contactId: $contactId, sourceKind: $sourceKind, externalId: $externalId) { ...ConsentFields } }`,
      [ConsentFields],
    ),
  ),
  addContactConsent: defineOperation(
    graphql(
      `mutation ($contactId: String, $sourceKind: String, $externalId: String, $input: JSON!) {
    addContactConsent(contactId: $contactId, sourceKind: $sourceKind, externalId: $externalId, input: $input) { ...ConsentFields } }`,
      [ConsentFields],
    ),
  ),
  revokeContactConsents: defineOperation(
    graphql(
      `mutation ($contactId: String, $sourceKind: String, $externalId: String, $input: JSON!) {
    revokeContactConsents(contactId: $contactId, sourceKind: $sourceKind, externalId: $externalId, input: $input) { ...ConsentFields } }`,
      [ConsentFields],
    ),
  ),
  getContactDialing: defineOperation(
    graphql(
      `query ($contactId: String, $sourceKind: String, $externalId: String) {
    contactDialing(contactId: $contactId, sourceKind: $sourceKind, externalId: $externalId) { ...ContactDialingFields } }`,
      [ContactDialingFields],
    ),
  ),
  startDncRegistryImport: defineOperation(
    graphql(
      `mutation ($registry: String!, $downloadedAt: String!, $areaCodes: [String!]) {
    startDncRegistryImport(registry: $registry, downloadedAt: $downloadedAt, areaCodes: $areaCodes) { ...DncRegistryImportFields } }`,
      [DncRegistryImportFields],
    ),
  ),
  appendDncRegistryLines: defineOperation(
    graphql(
      `mutation ($importId: String!, $firstLine: Int!, $lines: [String!]!) {
    appendDncRegistryLines(importId: $importId, firstLine: $firstLine, lines: $lines) { ...DncRegistryImportFields } }`,
      [DncRegistryImportFields],
    ),
  ),
  finishDncRegistryImport: defineOperation(
    graphql(`mutation ($importId: String!) {
    finishDncRegistryImport(importId: $importId) { registry downloadedAt lines numbers scopes bytesStored bytesPerNumber } }`),
  ),
  abandonDncRegistryImport: defineOperation(
    graphql(`mutation ($importId: String!) { abandonDncRegistryImport(importId: $importId) }`),
  ),
  listDncRegistryCopies: defineOperation(
    graphql(`query { dncRegistryCopies {
    registry scope downloadedAt importedAt numbers maxCopyAgeDays fresh freshUntil } }`),
  ),
};
