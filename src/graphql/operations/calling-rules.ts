// The calling rules' operations REST, the MCP tools and the console run: the calling policy, a
// contact's consents, and a contact's dialing decision (by id, or by source kind and external ID).
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
      `mutation ($contactId: String, $sourceKind: String, $externalId: String, $input: JSON) {
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
};
