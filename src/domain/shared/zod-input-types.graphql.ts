// GraphQL input types generated from the zod schemas that validate the same inputs, so the
// two cannot drift: one function reads a schema's input side (its JSON Schema, as zod prints
// it for schema/openapi.json too) and declares the input type field by field.
//
// The GraphQL type states the shape (field names, which are required, lists, scalars, enums);
// the zod schema stays the one rule for bounds and formats: the resolver hands the coerced
// input to the service, which parses it with that schema exactly as it parses a REST body
// (the same 400 `bad_request` with its `issues`). A GraphQL field is required (`!`) only where
// the zod schema requires the key and refuses null; a key zod requires but lets be null (a
// bulk item's externalId) is optional in GraphQL, which has no "present but maybe null".
import { z } from 'zod';
import type { EnumRef, InputObjectRef, InputTypeParam } from '@pothos/core';
import { builder } from '../builder.js';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type InputType = InputTypeParam<Types>;

/** The part of a JSON Schema node that zod prints for the schemas given here. */
interface JsonSchemaNode {
  type?: string;
  anyOf?: JsonSchemaNode[];
  enum?: unknown[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  description?: string;
}

export interface ZodInputTypeOptions {
  description?: string;
  /** Names of the nested input types, by the key of the field that holds them (an object, or a list of objects). */
  nested?: Record<string, string>;
  /** GraphQL enums for zod enums with exactly their values; another zod enum is a String naming its values. */
  enums?: ReadonlyArray<readonly [EnumRef<Types, string>, readonly string[]]>;
}

/** Input types already declared, by their shape: a nested shape seen again (a shared sub-schema) is declared once. */
const declaredByShape = new Map<string, InputObjectRef<Types, unknown>>();

/** Declares the input type `name` from a zod object schema's input side; returns its ref. */
export function inputTypeFromZod(
  name: string,
  schema: z.ZodType,
  options: ZodInputTypeOptions = {},
): InputObjectRef<Types, unknown> {
  const node = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;
  if (node.type !== 'object' || !node.properties) throw new Error(`${name}: the zod schema is not an object`);
  return declareObject(name, node, options, options.description);
}

function declareObject(
  name: string,
  node: JsonSchemaNode,
  options: ZodInputTypeOptions,
  description = node.description,
): InputObjectRef<Types, unknown> {
  const required = new Set(node.required ?? []);
  // The field types are worked out first, so that nested types are declared once, in field order.
  const fields = Object.entries(node.properties ?? {}).map(([key, property]) => {
    const field = graphqlType(property, name, key, options);
    const isRequired = required.has(key) && !field.nullable;
    const requiredness = Array.isArray(field.type) ? { list: isRequired, items: !field.itemsNullable } : isRequired;
    return { key, type: field.type, required: requiredness, description: field.description };
  });
  const ref = builder.inputType(name, {
    description,
    fields: (t) => Object.fromEntries(fields.map(({ key, ...field }) => [key, t.field(field)])),
  });
  declaredByShape.set(shapeKey(node), ref);
  return ref;
}

interface GraphqlFieldType {
  type: InputType;
  nullable: boolean;
  itemsNullable?: boolean;
  description?: string;
}

/** The GraphQL type of one property: nullable when the zod schema allows null. */
function graphqlType(
  node: JsonSchemaNode,
  parent: string,
  key: string,
  options: ZodInputTypeOptions,
): GraphqlFieldType {
  const description = node.description;
  if (node.anyOf) {
    const members = node.anyOf.filter((member) => member.type !== 'null');
    const nullable = members.length < node.anyOf.length;
    if (members.length === 1) {
      const member = graphqlType(members[0], parent, key, options);
      return { ...member, nullable, description: description ?? member.description };
    }
    // Text or a whole number (a monday board id): GraphQL's ID takes both.
    const textOrWhole = members.every((member) => member.type === 'string' || member.type === 'integer');
    if (textOrWhole) return { type: 'ID', nullable, description };
    return { type: 'JSON', nullable, description };
  }
  if (node.enum) return enumType(node.enum.map(String), description, options);
  switch (node.type) {
    case 'string':
      return { type: 'String', nullable: false, description };
    case 'integer':
      return { type: 'Int', nullable: false, description };
    case 'number':
      return { type: 'Float', nullable: false, description };
    case 'boolean':
      return { type: 'Boolean', nullable: false, description };
    case 'array': {
      const item = graphqlType(node.items ?? {}, parent, key, options);
      // A list of lists has no use here yet: JSON rather than a second list level.
      if (Array.isArray(item.type)) return { type: 'JSON', nullable: false, description };
      const list = [item.type] as InputType;
      const itemsNullable = item.nullable;
      return { type: list, nullable: false, itemsNullable, description: description ?? item.description };
    }
    case 'object': {
      // A record (customFields) has no properties: free-form JSON.
      if (!node.properties) return { type: 'JSON', nullable: false, description };
      const existing = declaredByShape.get(shapeKey(node));
      const name = options.nested?.[key];
      if (existing) return { type: existing, nullable: false, description };
      if (!name) throw new Error(`${parent}.${key}: name its input type (options.nested.${key})`);
      return { type: declareObject(name, node, options), nullable: false, description };
    }
    default:
      // z.unknown(), or a union of several kinds.
      return { type: 'JSON', nullable: false, description };
  }
}

/** The GraphQL enum with exactly these values; else text, its description naming them. */
function enumType(values: string[], description: string | undefined, options: ZodInputTypeOptions): GraphqlFieldType {
  const wanted = [...values].sort().join('|');
  const match = options.enums?.find(([, enumValues]) => [...enumValues].sort().join('|') === wanted);
  if (match) return { type: match[0], nullable: false, description };
  const oneOf = `One of: ${values.join(', ')}`;
  return { type: 'String', nullable: false, description: description ? `${description}. ${oneOf}` : oneOf };
}

/** What makes two nested types the same GraphQL type: field names, kinds, enums and required-ness, not bounds. */
function shapeKey(node: JsonSchemaNode): string {
  const shape = (n: JsonSchemaNode): unknown => ({
    type: n.type,
    enum: n.enum,
    required: n.required,
    anyOf: n.anyOf?.map(shape),
    items: n.items && shape(n.items),
    properties: n.properties && Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, shape(v)])),
  });
  return JSON.stringify(shape(node));
}
