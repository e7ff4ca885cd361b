/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// One contact: its fields, its enrollment, whether and when the dialer may call it and its
// consents (contact-calling.tsx), and its calls oldest first, each with its transcript as a
// conversation and the recording when the provider kept one.
import { CallingSection, type DialingView } from './contact-calling.js';
import { Layout, type Viewer } from './layout.js';
import { nameOf } from './contacts.js';
import { Time, ZonedTime } from './time.js';

export interface ContactDetail {
  id: string;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  phone: string | null;
  location: string | null;
  timezone: string | null;
  language: string | null;
  status: string | null;
  sourceKind: string;
  externalId: string | null;
  customFields: unknown;
  priority: number;
  assignedWorkflowId: string | null;
  callCount: number;
  maxAttempts: number | null;
  lastCallAt: string | null;
  nextCallAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The next call as the dialer will place it (the domain's accountContactNextCall). */
export interface NextCallView {
  agentId: string | null;
  agentName: string | null;
  dueAt: string | null;
  plannedAt: string | null;
  timeZone: string | null;
  timeZoneOf: 'contact' | 'agent' | null;
  immediate: boolean;
  heldBy: string | null;
}

/** Why nobody calls the contact now, as the page says it. */
const HELD: Record<string, string> = {
  call_in_progress: 'a call is in progress now.',
  no_agent: 'its workflow has no agent: choose one on the Agents and workflows page.',
  workflow_not_published: 'its workflow is not published.',
  workflow_paused: 'its workflow is paused.',
  agent_not_live: 'the workflow’s agent is not live.',
  no_working_hours: 'the workflow’s agent has no working hours.',
  no_phone: 'the contact has no phone number.',
  contact_paused: 'the contact is paused.',
};

/**
 * The next call: when the dialer will place it, on the clock of the zone the agent's working
 * hours apply in (the contact's, else the agent's), and why then. The time is the dialing
 * decision's nextCallableAt (the dialer's own decision: the law, the consents and the calling
 * policy as well as the working hours), so this line never promises a call the Calling section
 * below says cannot be placed. The time the last call asked to retry at can fall outside the
 * hours; the call then waits for the next window, and the page says so rather than show a time
 * nobody calls at.
 */
function NextCall(props: { next: NextCallView | null; dialing: DialingView; now: string }) {
  const n = props.next;
  if (!n) return <>none: the enrollment has ended</>;
  if (n.heldBy === 'call_in_progress') return <>{HELD.call_in_progress}</>;
  if (n.heldBy) return <>{`none planned: ${HELD[n.heldBy] ?? n.heldBy}`}</>;
  const at = props.dialing.nextCallableAt;
  if (!at)
    return (
      <>
        {props.dialing.reasons.some((reason) => reason.until === null)
          ? 'none planned: the calling rules hold it until someone acts (see Calling below).'
          : 'none planned: no time the calling rules and the working hours allow opens in the next 45 days (see Calling below).'}
      </>
    );
  const zone = n.timeZone ?? props.dialing.timeZones[0] ?? 'UTC';
  const zoneSaid =
    n.timeZoneOf === 'contact'
      ? `the contact’s time zone, ${n.timeZone}`
      : `the agent’s time zone, ${n.timeZone}, as the contact has none`;
  // Due later than now (a retry time), and that time is outside the hours.
  const waits =
    n.dueAt !== null &&
    n.plannedAt !== null &&
    Date.parse(n.dueAt) > Date.parse(props.now) &&
    Date.parse(n.plannedAt) > Date.parse(n.dueAt);
  // The law, a cap or the policy allow the call only after the working hours' window.
  const later = n.plannedAt !== null && Date.parse(at) > Date.parse(n.plannedAt);
  return (
    <>
      <ZonedTime at={at} zone={zone} />
      <span class="hint">
        {' '}
        (your time: <Time at={at} />)
      </span>
      <p class="hint" id="next-call-why">
        {n.immediate
          ? 'A first call is placed at once, even outside the working hours (the agent calls new contacts immediately, or the enrollment asked to call now).'
          : `${n.agentName ?? 'The agent'} calls in its working hours, applied in ${zoneSaid}.`}
        {waits && n.dueAt && (
          <>
            {' '}
            It is due at <ZonedTime at={n.dueAt} zone={zone} /> (the retry time the last call set), outside those hours:
            the call waits for the next window.
          </>
        )}
        {later && ' The calling rules allow it only later than the working hours would: see Calling below.'}
      </p>
    </>
  );
}

export interface CallView {
  id: string;
  status: string;
  result: string | null;
  startedAt: string | null;
  durationSeconds: number | null;
  recordingUrl: string | null;
  utterances: Array<{ speaker: string; content: string; timestamp: string | null }>;
}

function Field(props: { label: string; children: preact.ComponentChildren }) {
  return (
    <>
      <dt>{props.label}</dt>
      <dd>{props.children}</dd>
    </>
  );
}

const orDash = (value: string | number | null | undefined) => (value === null || value === undefined ? '—' : value);

export function ContactPage(props: {
  viewer: Viewer;
  contact: ContactDetail;
  workflowName: string | null;
  nextCall: NextCallView | null;
  /** The service's time: what is still to come. */
  now: string;
  calls: CallView[];
  calling: Omit<Parameters<typeof CallingSection>[0], 'csrf' | 'contactId'>;
}) {
  const c = props.contact;
  const custom = c.customFields && typeof c.customFields === 'object' ? Object.entries(c.customFields) : [];
  return (
    <Layout title={nameOf(c)} viewer={props.viewer} current="/console/contacts">
      <p>
        <a href="/console/contacts">← All contacts</a>
      </p>
      <section class="card" aria-labelledby="fields-title">
        <h2 id="fields-title">Fields</h2>
        <dl class="fields">
          <Field label="Phone">{orDash(c.phone)}</Field>
          <Field label="Status">{orDash(c.status)}</Field>
          <Field label="Location">{orDash(c.location)}</Field>
          <Field label="Time zone">{orDash(c.timezone)}</Field>
          <Field label="Language">{orDash(c.language)}</Field>
          <Field label="Source">{`${c.sourceKind}${c.externalId ? ` · ${c.externalId}` : ''}`}</Field>
          <Field label="Added">
            <Time at={c.createdAt} />
          </Field>
          <Field label="Updated">
            <Time at={c.updatedAt} />
          </Field>
          {custom.map(([key, value]) => (
            <Field key={key} label={key}>
              {typeof value === 'string' ? value : JSON.stringify(value)}
            </Field>
          ))}
        </dl>
      </section>
      <section class="card" aria-labelledby="enrollment-title">
        <h2 id="enrollment-title">Enrollment</h2>
        {c.assignedWorkflowId ? (
          <dl class="fields">
            <Field label="Workflow">{props.workflowName ?? c.assignedWorkflowId}</Field>
            <Field label="Calls made">{`${c.callCount}${c.maxAttempts ? ` of at most ${c.maxAttempts}` : ''}`}</Field>
            <Field label="Priority">{c.priority}</Field>
            <Field label="Next call">
              <NextCall next={props.nextCall} dialing={props.calling.dialing} now={props.now} />
            </Field>
            <Field label="Last call">{c.lastCallAt ? <Time at={c.lastCallAt} /> : '—'}</Field>
          </dl>
        ) : (
          <p class="empty">Not in a workflow. Enroll it with assignmentOptions.workflowId on an upsert or import.</p>
        )}
      </section>
      <CallingSection contactId={c.id} csrf={props.viewer.csrf} {...props.calling} />
      <section aria-labelledby="calls-title">
        <h2 id="calls-title">Calls, oldest first</h2>
        {props.calls.length === 0 ? (
          <p class="empty">No calls yet. A contact in a published workflow is called inside its calling hours.</p>
        ) : (
          <ol class="calls">
            {props.calls.map((call, index) => (
              <li key={call.id} class="card">
                <h3>
                  {call.startedAt ? <Time at={call.startedAt} /> : 'Not started'} · {call.result ?? call.status}
                  {call.durationSeconds ? ` · ${Math.round(call.durationSeconds)} s` : ''}
                </h3>
                {call.recordingUrl && (
                  // biome-ignore lint/a11y/useMediaCaption: the transcript below is the call's text
                  <audio controls preload="none" src={call.recordingUrl}>
                    <a href={call.recordingUrl}>Recording</a>
                  </audio>
                )}
                {call.utterances.length > 0 ? (
                  <details open={index === props.calls.length - 1}>
                    <summary>Transcript ({call.utterances.length} turns)</summary>
                    <ol class="conversation">
                      {call.utterances.map((u, i) => (
                        <li key={i} class={u.speaker === 'assistant' ? 'turn agent' : 'turn contact'}>
                          <span class="speaker">{u.speaker === 'assistant' ? 'Agent' : 'Contact'}</span>
                          <p>{u.content}</p>
                        </li>
                      ))}
                    </ol>
                  </details>
                ) : (
                  <p class="hint">No transcript for this call.</p>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
    </Layout>
  );
}
