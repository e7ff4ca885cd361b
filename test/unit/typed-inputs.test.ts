// The typed GraphQL inputs (upsertContactTyped(input: UpsertContactInput!), …) must say what the
// zod schemas their services parse with say: the same field names, required exactly where zod
// requires the key and refuses null, lists where zod takes arrays, nested input types where
// zod takes objects with fields, JSON where zod takes free-form values, and enums with zod's
// values. The types are generated from those schemas (src/domain/shared/zod-input-types.graphql.ts);
// this reads the built schema independently and fails on any drift, and on a JSON-input write
// without its typed twin.
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  CallingPolicyBodySchema,
  ConsentBodySchema,
  RevokeConsentsBodySchema,
} from '../../src/domain/calling-rules/calling-rules.inputs.js';
import { schema } from '../../src/domain/schema.js';
import {
  BulkImportBodySchema,
  BulkItemSchema,
  BulkUpdateBodySchema,
  PatchBodySchema,
  UpsertBodySchema,
} from '../../src/domain/contacts/contacts.inputs.js';
import {
  CreateAccountAgentSchema,
  CreateAgentSchema,
  UpdateAgentSchema,
} from '../../src/domain/agents/agents.service.js';
import {
  ContactSelectionSchema,
  EnrollContactsSchema,
} from '../../src/domain/enrollment/workflow-enrollments.inputs.js';
import { SetProviderCredentialsSchema } from '../../src/domain/providers/provider-credentials.service.js';
import { SetBoardMappingSchema } from '../../src/domain/boards/board-mapping.inputs.js';
import {
  CreateWebhookEndpointSchema,
  UpdateWebhookEndpointSchema,
} from '../../src/domain/webhooks/webhook-endpoints.inputs.js';

/** Each write with a JSON `input`, and the zod schema its service parses that input with. */
const ZOD_SCHEMA_OF: Record<string, z.ZodType> = {
  upsertContact: UpsertBodySchema,
  // The service parses the body, then each item with BulkItemSchema (naming each bad one `contacts[i]`).
  importContacts: BulkImportBodySchema.extend({ contacts: z.array(BulkItemSchema) }),
  bulkUpdateContacts: BulkUpdateBodySchema,
  startBulkUpdate: BulkUpdateBodySchema,
  patchContactByExternalId: PatchBodySchema,
  createAgent: CreateAgentSchema,
  updateAgent: UpdateAgentSchema,
  setProviderCredentials: SetProviderCredentialsSchema,
  setBoardMapping: SetBoardMappingSchema,
  createWebhookEndpoint: CreateWebhookEndpointSchema,
  updateWebhookEndpoint: UpdateWebhookEndpointSchema,
  setCallingPolicy: CallingPolicyBodySchema,
  addContactConsent: ConsentBodySchema,
  revokeContactConsents: RevokeConsentsBodySchema,
  stopWorkflowEnrollments: ContactSelectionSchema,
  enrollWorkflowContacts: EnrollContactsSchema,
};

/**
 * Writes with a typed input only (no JSON twin): the console's, and the zod schema their service
 * parses that input with. The same rules hold.
 */
const TYPED_ONLY: Record<string, z.ZodType> = {
  createAccountAgent: CreateAccountAgentSchema,
  updateAccountAgent: UpdateAgentSchema,
};

interface Node {
  type?: string;
  anyOf?: Node[];
  enum?: unknown[];
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
}

/** Every difference between a GraphQL input type and the JSON Schema zod prints for the input side. */
function drift(graphqlType: GraphQLInputType, node: Node, requiredKey: boolean, path: string): string[] {
  const members = node.anyOf?.filter((member) => member.type !== 'null');
  const nullable = node.anyOf !== undefined && members!.length < node.anyOf.length;
  const shape = members?.length === 1 ? members[0] : node;
  const problems: string[] = [];
  const zodRequires = requiredKey && !nullable;
  if (isNonNullType(graphqlType) !== zodRequires) {
    const graphqlSays = isNonNullType(graphqlType) ? 'requires' : 'does not require';
    problems.push(`${path}: GraphQL ${graphqlSays} it; zod ${zodRequires ? 'does' : 'does not'}`);
  }
  const type = getNullableType(graphqlType);
  if (isListType(type)) {
    if (shape.type !== 'array') return [...problems, `${path}: a list in GraphQL, ${shape.type ?? 'a union'} in zod`];
    return [...problems, ...drift(type.ofType, shape.items ?? {}, true, `${path}[]`)];
  }
  const named = getNamedType(type);
  if (isInputObjectType(named)) {
    if (shape.type !== 'object' || !shape.properties) {
      return [...problems, `${path}: an input type in GraphQL, not an object with fields in zod`];
    }
    const properties = shape.properties;
    const fields = named.getFields();
    const graphqlNames = Object.keys(fields).sort();
    const zodNames = Object.keys(properties).sort();
    if (graphqlNames.join() !== zodNames.join()) {
      problems.push(`${path}: fields ${graphqlNames.join(', ')} in GraphQL, ${zodNames.join(', ')} in zod`);
    }
    const required = new Set(shape.required ?? []);
    for (const name of graphqlNames.filter((n) => properties[n])) {
      problems.push(...drift(fields[name].type, properties[name], required.has(name), `${path}.${name}`));
    }
    return problems;
  }
  if (isEnumType(named)) {
    const values = named
      .getValues()
      .map((v) => v.value)
      .sort();
    if (values.join() !== (shape.enum ?? []).map(String).sort().join()) {
      problems.push(`${path}: enum ${named.name} ≠ zod's ${JSON.stringify(shape.enum)}`);
    }
    return problems;
  }
  const expected = scalarFor(shape, members);
  if (!isScalarType(named) || named.name !== expected) {
    problems.push(`${path}: ${named.name} in GraphQL, ${expected} for zod's ${JSON.stringify(shape)}`);
  }
  return problems;
}

/** The scalar for a zod value: text (an enum without a GraphQL enum too), Int, Float, Boolean, ID, else JSON. */
function scalarFor(shape: Node, members: Node[] | undefined): string {
  if (members && members.length > 1) {
    return members.every((m) => m.type === 'string' || m.type === 'integer') ? 'ID' : 'JSON';
  }
  if (shape.enum || shape.type === 'string') return 'String';
  if (shape.type === 'integer') return 'Int';
  if (shape.type === 'number') return 'Float';
  if (shape.type === 'boolean') return 'Boolean';
  return 'JSON';
}

const inputSide = (zodSchema: z.ZodType) => z.toJSONSchema(zodSchema, { io: 'input', unrepresentable: 'any' }) as Node;

describe('typed GraphQL inputs', () => {
  const mutations = schema.getMutationType()!.getFields();
  const takesJsonInput = (arg: GraphQLArgument) => arg.name === 'input' && getNamedType(arg.type).name === 'JSON';
  // The board app's own writes: only its request context may run them (requireBoardApp), and
  // their input is what monday sent, so no person or team writes it by hand.
  const boardAppOnly = new Set(['enrollBoardItem', 'subscribeToCallEnded']);
  const jsonInputWrites = Object.values(mutations).filter(
    (field) => field.args.some(takesJsonInput) && !boardAppOnly.has(field.name),
  );

  it('every write with a JSON input has a typed twin, and the test knows its zod schema', () => {
    expect(jsonInputWrites.length).toBeGreaterThanOrEqual(8);
    for (const field of jsonInputWrites) {
      expect(mutations[`${field.name}Typed`], `${field.name}Typed`).toBeDefined();
      expect(ZOD_SCHEMA_OF[field.name], `the zod schema of ${field.name}`).toBeDefined();
    }
  });

  it.each(Object.entries(ZOD_SCHEMA_OF))('%sTyped takes the fields its zod schema takes', (name, zodSchema) => {
    const twin = mutations[`${name}Typed`];
    const json = mutations[name];
    // The same arguments, but for the input's type.
    expect(twin.args.map((a) => a.name)).toEqual(json.args.map((a) => a.name));
    const input = twin.args.find((a) => a.name === 'input')!;
    expect(drift(input.type, inputSide(zodSchema), true, 'input')).toEqual([]);
  });

  it.each(Object.entries(TYPED_ONLY))('%s takes the fields its zod schema takes', (name, zodSchema) => {
    const input = mutations[name].args.find((a) => a.name === 'input')!;
    expect(getNamedType(input.type).name).not.toBe('JSON');
    expect(drift(input.type, inputSide(zodSchema), true, 'input')).toEqual([]);
  });

  it("the console's agent input is the operator's without the Account (the person's own)", () => {
    const operator = Object.keys(inputSide(CreateAgentSchema).properties ?? {}).sort();
    const ownAccount = Object.keys(inputSide(CreateAccountAgentSchema).properties ?? {}).sort();
    expect(operator.filter((key) => key !== 'accountId')).toEqual(ownAccount);
  });

  it('fails on drift: a renamed field, a field made optional, a scalar for a list', () => {
    const inputOf = (name: string) => mutations[name].args.find((a) => a.name === 'input')!.type;
    const renamed = inputSide(UpsertBodySchema.extend({ phoneNumber: z.string().optional() }));
    expect(drift(inputOf('upsertContactTyped'), renamed, true, 'input')).toContainEqual(
      expect.stringMatching(/^input: fields /),
    );
    const sourceKindRequired = inputSide(UpsertBodySchema.extend({ sourceKind: z.string() }));
    expect(drift(inputOf('upsertContactTyped'), sourceKindRequired, true, 'input')).toContain(
      'input.sourceKind: GraphQL does not require it; zod does',
    );
    const notAList = inputSide(BulkImportBodySchema.extend({ contacts: BulkItemSchema }));
    expect(drift(inputOf('importContactsTyped'), notAList, true, 'input')).toContain(
      'input.contacts: a list in GraphQL, object in zod',
    );
  });
});
