/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// One contact: its fields, its enrollment, and its calls oldest first, each with its transcript
// as a conversation and the recording when the provider kept one.
import { Layout, type Viewer } from './layout.js';
import { nameOf } from './contacts.js';
import { Time } from './time.js';

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
  calls: CallView[];
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
            <Field label="Next call">{c.nextCallAt ? <Time at={c.nextCallAt} /> : '—'}</Field>
            <Field label="Last call">{c.lastCallAt ? <Time at={c.lastCallAt} /> : '—'}</Field>
          </dl>
        ) : (
          <p class="empty">Not in a workflow. Enroll it with assignmentOptions.workflowId on an upsert or import.</p>
        )}
      </section>
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
