/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// (The pragmas make every runner compile this file for Preact, whatever tsconfig it finds.)
// The Account's voice agents (their calling week at a glance; each created and edited on its own
// page, agent.tsx) and its workflows: create one as a draft, then publish, pause, resume or
// archive it.
import { FieldError, FormAlert, Layout, type Viewer } from './layout.js';
import { WeekGrid } from './week.js';

export interface AgentRow {
  id: string;
  name: string;
  status: string;
  provider: string;
  timezone: string;
  attemptLimit: number;
  retryDelayMinutes: number;
  workingHours: unknown;
}

export interface WorkflowRow {
  id: string;
  name: string;
  status: string;
  paused: boolean;
  agentId: string | null;
}

function WorkflowActions(props: { workflow: WorkflowRow; csrf: string }) {
  const w = props.workflow;
  const actions: Array<{ label: string; field: 'status' | 'paused'; value: string }> = [];
  if (w.status === 'draft') actions.push({ label: 'Publish', field: 'status', value: 'published' });
  if (w.status === 'published' && !w.paused) actions.push({ label: 'Pause', field: 'paused', value: 'true' });
  if (w.status === 'published' && w.paused) actions.push({ label: 'Resume', field: 'paused', value: 'false' });
  if (w.status !== 'archived') actions.push({ label: 'Archive', field: 'status', value: 'archived' });
  return (
    <div class="actions">
      {actions.map((action) => (
        <form key={action.label} method="post" action={`/console/workflows/${w.id}`}>
          <input type="hidden" name="csrf" value={props.csrf} />
          <input type="hidden" name={action.field} value={action.value} />
          <button
            type="submit"
            class={action.label === 'Archive' ? 'danger' : undefined}
            aria-label={`${action.label} ${w.name}`}
          >
            {action.label}
          </button>
        </form>
      ))}
    </div>
  );
}

/**
 * The agent a new workflow gets unless the person picks another: the Account's first live agent.
 * A workflow without an agent is never dialled, nor is one whose agent is not live, so without a
 * live agent nothing is preselected and the form says why.
 */
export function defaultAgentId(agents: AgentRow[]): string {
  return agents.find((a) => a.status === 'live')?.id ?? '';
}

/**
 * The agents a workflow can be given: the live ones first (those that call), then the others
 * under their status, so a draft can be prepared with an agent that goes live later.
 */
function AgentOptions(props: { agents: AgentRow[]; selected: string | null }) {
  const live = props.agents.filter((a) => a.status === 'live');
  const others = props.agents.filter((a) => a.status !== 'live');
  const option = (a: AgentRow) => (
    <option key={a.id} value={a.id} selected={a.id === props.selected}>
      {a.status === 'live' ? a.name : `${a.name} (${a.status})`}
    </option>
  );
  return (
    <>
      {live.length > 0 && <optgroup label="Live agents">{live.map(option)}</optgroup>}
      {others.length > 0 && <optgroup label="Not live: they call nobody yet">{others.map(option)}</optgroup>}
    </>
  );
}

/** A workflow's agent, and a form to set or change it (not for an archived workflow, nor without agents). */
function WorkflowAgent(props: { workflow: WorkflowRow; agents: AgentRow[]; csrf: string; error?: string }) {
  const w = props.workflow;
  const current = props.agents.find((a) => a.id === w.agentId);
  const name = current?.name ?? (w.agentId ? w.agentId : 'none yet');
  if (w.status === 'archived' || props.agents.length === 0) return <>{w.agentId ? name : '—'}</>;
  const id = `agent-of-${w.id}`;
  const errorId = `${id}-error`;
  return (
    <form method="post" action={`/console/workflows/${w.id}/agent`} class="agent-pick">
      <input type="hidden" name="csrf" value={props.csrf} />
      <label for={id} class="visually-hidden">
        Agent of {w.name}
      </label>
      <select
        id={id}
        name="agentId"
        required
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? errorId : undefined}
      >
        {!current && (
          <option value="" selected>
            {w.agentId ? name : 'none yet: choose one'}
          </option>
        )}
        <AgentOptions agents={props.agents} selected={w.agentId} />
      </select>
      <button type="submit" class="secondary" aria-label={`Set the agent of ${w.name}`}>
        Set
      </button>
      <FieldError id={errorId} message={props.error} />
    </form>
  );
}

export function WorkflowsPage(props: {
  viewer: Viewer;
  agents: AgentRow[];
  workflows: WorkflowRow[];
  values?: { name: string; agentId: string };
  errors?: Record<string, string>;
  /** A refused agent change, by workflow id. */
  agentErrors?: Record<string, string>;
  notice?: string;
}) {
  const errors = props.errors ?? {};
  const chosenAgent = props.values ? props.values.agentId : defaultAgentId(props.agents);
  return (
    <Layout title="Agents and workflows" viewer={props.viewer} current="/console/workflows">
      <FormAlert message={props.notice} tone="ok" />
      <section aria-labelledby="workflows-title">
        <h2 id="workflows-title">Workflows</h2>
        {props.workflows.length === 0 ? (
          <p class="empty">No workflows yet. Create one below, publish it, then enroll contacts into it.</p>
        ) : (
          <div class="table-wrap stacked">
            <table class="stacked">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Status</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {props.workflows.map((w) => (
                  <tr key={w.id}>
                    <th scope="row">
                      <a href={`/console/workflows/${w.id}`}>{w.name}</a>
                    </th>
                    <td data-label="Agent">
                      <WorkflowAgent
                        workflow={w}
                        agents={props.agents}
                        csrf={props.viewer.csrf}
                        error={props.agentErrors?.[w.id]}
                      />
                    </td>
                    <td data-label="Status">{w.paused ? `${w.status}, paused` : w.status}</td>
                    <td data-label="Change">
                      <WorkflowActions workflow={w} csrf={props.viewer.csrf} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <form method="post" action="/console/workflows" class="card narrow">
          <h3>New workflow</h3>
          <input type="hidden" name="csrf" value={props.viewer.csrf} />
          <label for="name">Name</label>
          <input
            id="name"
            name="name"
            required
            maxLength={200}
            value={props.values?.name ?? ''}
            aria-invalid={errors.name ? 'true' : undefined}
            aria-describedby={errors.name ? 'name-error' : undefined}
          />
          <FieldError id="name-error" message={errors.name} />
          <label for="agentId">Agent</label>
          <select
            id="agentId"
            name="agentId"
            aria-invalid={errors.agentId ? 'true' : undefined}
            aria-describedby={errors.agentId ? 'agentId-error' : undefined}
          >
            <AgentOptions agents={props.agents} selected={chosenAgent} />
            <option value="" selected={chosenAgent === ''}>
              {props.agents.length ? 'none (nobody calls its contacts until one is set)' : 'none yet'}
            </option>
          </select>
          <FieldError id="agentId-error" message={errors.agentId} />
          {!props.agents.some((a) => a.status === 'live') && (
            <p class="hint" id="agentId-hint">
              {props.agents.length === 0
                ? 'No agent yet: create one below, then set it live, so that the workflow’s contacts are called.'
                : 'No agent is live yet: a workflow’s contacts are called once its agent is set live on its page.'}
            </p>
          )}
          <button type="submit">Create as draft</button>
        </form>
      </section>
      <section aria-labelledby="agents-title">
        <h2 id="agents-title">Voice agents</h2>
        <p>
          <a href="/console/agents/new" class="button">
            New agent
          </a>
        </p>
        {props.agents.length === 0 ? (
          <p class="empty">No agents yet. Create one: a workflow's agent calls its contacts in its working hours.</p>
        ) : (
          props.agents.map((agent) => (
            <article key={agent.id} class="card" id={`agent-${agent.id}`}>
              <h3>{agent.name}</h3>
              <p>
                {agent.status} · {agent.provider} · up to {agent.attemptLimit} attempts, {agent.retryDelayMinutes}{' '}
                minutes apart
              </p>
              <WeekGrid agent={agent} />
              <p>
                <a href={`/console/agents/${agent.id}`}>
                  Edit<span class="visually-hidden"> {agent.name}</span>
                </a>
              </p>
            </article>
          ))
        )}
      </section>
    </Layout>
  );
}
