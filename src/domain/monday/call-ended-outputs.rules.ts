// What a "when a call ends" delivery carries: the trigger block's output fields (declared in
// integration/monday/manifest.json), for an ended call and the board item its contact came from,
// in the body monday's trigger webhook takes ({ trigger: { outputFields } }). Pure.
import type { CallEndedEvent } from '../calls/call-events.service.js';

/** The trigger block's output fields. */
export interface CallEndedOutputs {
  itemId: number | string | null;
  boardId: number | string | null;
  callResult: string;
  endReason: string;
  durationSeconds: number;
  isLastCall: boolean;
  callId: string;
  contactId: string;
  agentId: string | null;
  workflowId: string | null;
}

/** The board item a call's contact came from (none: the contact came from no board). */
export type CallItem = { boardId: string; itemId: string } | undefined;

export function outputsOf(call: CallEndedEvent, item: CallItem): CallEndedOutputs {
  return {
    itemId: item ? mondayIdValue(item.itemId) : null,
    boardId: item ? mondayIdValue(item.boardId) : null,
    callResult: call.result,
    endReason: call.endReason,
    durationSeconds: call.durationSeconds,
    isLastCall: call.lastCall,
    callId: call.callId,
    contactId: call.contactId,
    agentId: call.agentId,
    workflowId: call.workflowId,
  };
}

/** The body of one delivery, as stored with it and sent as it is. */
export function callEndedBody(call: CallEndedEvent, item: CallItem): { trigger: { outputFields: CallEndedOutputs } } {
  return { trigger: { outputFields: outputsOf(call, item) } };
}

/** monday takes its ids (item, board) as numbers in trigger outputs; ones beyond 2^53 stay strings. */
function mondayIdValue(id: string): number | string {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : id;
}
