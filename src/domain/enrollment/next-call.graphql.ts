// The console's read of a contact's next call (next-call.service.ts).
import { builder } from '../builder.js';
import { UUID_ARG } from '../shared/argument-guard.js';
import { accountContactNextCall, NEXT_CALL_HOLDS, type NextCall } from './next-call.service.js';

const NextCallHoldEnum = builder.enumType('NextCallHold', { values: NEXT_CALL_HOLDS });
const TimeZoneOwnerEnum = builder.enumType('TimeZoneOwner', { values: ['contact', 'agent'] as const });

const NextCallType = builder.objectRef<NextCall>('NextCall').implement({
  description:
    "A contact's next call as the dialer will place it: the agent's working hours applied in the contact's zone (the agent's when the contact has none).",
  fields: (t) => ({
    workflowId: t.exposeString('workflowId'),
    agentId: t.exposeString('agentId', { nullable: true }),
    agentName: t.exposeString('agentName', { nullable: true }),
    dueAt: t.expose('dueAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'When the enrollment is due (the retry time the last call asked for); null while a call is in flight',
    }),
    plannedAt: t.expose('plannedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the dialer places the call: the first instant inside the working hours at or after dueAt',
    }),
    timeZone: t.exposeString('timeZone', { nullable: true, description: 'The zone the working hours apply in' }),
    timeZoneOf: t.expose('timeZoneOf', { type: TimeZoneOwnerEnum, nullable: true }),
    immediate: t.exposeBoolean('immediate', {
      description: 'A first attempt placed at once, even outside the working hours',
    }),
    heldBy: t.expose('heldBy', {
      type: NextCallHoldEnum,
      nullable: true,
      description: 'Why nobody calls now, whatever the time; null: the call is placed at plannedAt',
    }),
  }),
});

builder.queryFields((t) => ({
  accountContactNextCall: t.field({
    type: NextCallType,
    nullable: true,
    description:
      "Console: when the dialer will call a contact of the signed-in person's Account, and why then; null when it is in no active enrollment.",
    args: { contactId: t.arg.string({ required: true, ...UUID_ARG }) },
    resolve: (_root, args, ctx) => accountContactNextCall(ctx, args.contactId),
  }),
}));
