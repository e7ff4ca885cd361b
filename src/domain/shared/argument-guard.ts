// The checks every operation's arguments pass before its resolver runs, applied once to the
// built schema, so that every surface gets them (REST, MCP and the board app run these
// operations too; see src/graphql/execute.ts):
//   - text PostgreSQL cannot store (a NUL, a lone surrogate) anywhere in any argument, at any
//     depth of a JSON argument, is a 400 naming where (storable-text.ts);
//   - an ID argument (declared with `...UUID_ARG`) must be a UUID: a 400 naming the argument,
//     never a database error. It reaches the resolver lower-cased.
// An `input` argument is the REST body itself, so its paths are the body's (`contacts[3].firstName`);
// any other argument's paths start with its name.
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { badRequest } from '../errors.js';
import { assertUuid } from './ids.js';
import { findUnstorableText } from './storable-text.js';

/** Spread into an ID argument's options: `t.arg.string({ required: true, ...UUID_ARG })`. */
export const UUID_ARG = { description: 'A UUID', extensions: { uuid: true } } as const;

/** The argument whose paths are the REST body's own (no prefix). */
const BODY_ARGUMENT = 'input';

/** Wraps the resolver of every Query and Mutation field with the argument checks; returns the schema. */
export function guardArguments(schema: GraphQLSchema): GraphQLSchema {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      if (field.args.length === 0) continue;
      const uuidArguments = field.args.filter((arg) => arg.extensions?.uuid === true).map((arg) => arg.name);
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) =>
        resolve(source, checkedArguments(args, uuidArguments), context, info);
    }
  }
  return schema;
}

/** The arguments as the resolver gets them, or the 400 for the first bad one. */
export function checkedArguments(
  args: Record<string, unknown>,
  uuidArguments: readonly string[],
): Record<string, unknown> {
  for (const [name, value] of Object.entries(args)) {
    const problem = findUnstorableText(value, name === BODY_ARGUMENT ? '' : name);
    if (problem)
      throw badRequest(problem.path ? `${problem.path}: ${problem.message}` : problem.message, { issues: [problem] });
  }
  if (uuidArguments.length === 0) return args;
  const checked = { ...args };
  for (const name of uuidArguments) {
    const value = checked[name];
    if (value === null || value === undefined) continue;
    checked[name] = assertUuid(String(value), name);
  }
  return checked;
}
