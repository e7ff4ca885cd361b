// Scalars shared by every type file.
import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { builder } from '../builder.js';

builder.scalarType('DateTime', {
  description: 'UTC timestamp with milliseconds and Z, e.g. 2026-01-31T09:30:00.000Z',
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value as string).toISOString()),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 date-time');
    return date;
  },
});

function literalToJson(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literalToJson(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalToJson(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
    default:
      return undefined;
  }
}

builder.scalarType('JSON', {
  description:
    "Any JSON value. Write inputs are JSON objects validated by the service (the REST contract's write fields): " +
    'a key left out means "not sent", a key sent as null means null. Each write taking a JSON input has a twin ' +
    'named with Typed (upsertContactTyped, createAgentTyped, …) whose input type has the same fields and rules.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node, variables) => literalToJson(node, variables),
});
