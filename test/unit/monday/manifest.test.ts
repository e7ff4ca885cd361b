// The checked-in app manifest (integration/monday/manifest.json) against the code that serves
// it: every URL is a route of the board app's router with the right method, the blocks' field
// keys are the ones the handlers read, the trigger's outputs are what a delivery carries, and
// every recipe sentence fits monday's 255 characters and names only its blocks' fields.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Services } from '../../../src/domain/context.js';
import type { CallEndedEvent } from '../../../src/domain/calls/call-events.service.js';
import { mondayRouter } from '../../../integration/monday/board-app.route.js';
import type { MondayConfig } from '../../../integration/monday/config.js';
import type { ActionHandler } from '../../../integration/monday/action-runs.js';
import { MondayActionFailure } from '../../../integration/monday/action-failure.js';
import { enrollAction } from '../../../integration/monday/actions/enroll.action.js';
import { fillTimezoneAction } from '../../../integration/monday/actions/fill-timezone.action.js';
import { setStatusAction } from '../../../integration/monday/actions/set-status.action.js';
import { outputsOf } from '../../../src/domain/monday/call-ended-outputs.rules.js';

interface Field {
  key: string;
  type: string;
  fieldType?: string;
  columnTypes?: string[];
  dependsOn?: string[];
  optional?: boolean;
  primitiveType?: string;
  nullable?: boolean;
}
interface Block {
  key: string;
  inputFields: Field[];
  outputFields: Field[];
  runUrl?: string;
  subscribeUrl?: string;
  unsubscribeUrl?: string;
}
interface Source {
  sourceKind: 'variable_in_context' | 'trigger_output' | 'sentence';
  outputFieldKey?: string;
}
interface Recipe {
  key: string;
  trigger: string;
  action: string;
  sentence: { trigger: string; action: string };
  sourceConfig: Record<string, Source>;
  triggerSourceConfig?: Record<string, Source>;
}

const root = path.resolve(import.meta.dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'integration/monday/manifest.json'), 'utf8'));
const integration = manifest.app.features.find((f: { type: string }) => f.type === 'AppFeatureIntegration').data;
const triggers: Block[] = integration.triggers;
const builtInTriggers: Block[] = integration.builtInTriggers;
const actions: Block[] = integration.actions;
const recipes: Recipe[] = integration.recipes;
const fieldTypes: Array<{ key: string; remoteOptionsUrl: string }> = integration.fieldTypes;

const BASE = '{{PUBLIC_BASE_URL}}/integrations/monday';
const config: MondayConfig = {
  signingSecret: 'manifest-test',
  appId: 1,
  apiUrl: 'http://127.0.0.1:9/v2',
  apiVersion: '2026-10',
  publicBaseUrl: null,
};
/** Which HTTP method monday uses for a URL, by the manifest key that holds it. */
const METHOD_OF: Record<string, string> = {
  runUrl: 'post',
  subscribeUrl: 'post',
  unsubscribeUrl: 'post',
  remoteOptionsUrl: 'post',
  authorizationUrl: 'get',
  redirectUris: 'get',
  /** A view feature's page: monday loads it in an iframe with ?sessionToken=. */
  url: 'get',
};

/** "METHOD path" for every route the board app's router serves (sub-routers included). */
function servedRoutes(): Set<string> {
  const routes = new Set<string>();
  const walk = (stack: any[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route)
        for (const method of Object.keys(layer.route.methods)) routes.add(`${method} ${prefix}${layer.route.path}`);
      else if (layer.handle?.stack)
        walk(
          layer.handle.stack,
          typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? prefix + layer.rawPath : prefix,
        );
    }
  };
  // Building the router touches no service: a stub is enough to list its routes.
  walk((mondayRouter({} as Services, config) as any).stack, '');
  return routes;
}

/** Every `{{PUBLIC_BASE_URL}}` URL in the manifest with the key that holds it. */
function manifestUrls(): Array<{ key: string; url: string }> {
  const found: Array<{ key: string; url: string }> = [];
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string' && value.includes('{{PUBLIC_BASE_URL}}')) found.push({ key, url: value });
    else if (Array.isArray(value)) for (const v of value) walk(v, key);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(manifest, '');
  return found;
}

/** The input keys an action handler reads, recorded while it runs against stubs up to its first failure. */
async function keysRead(handler: ActionHandler, seed: Record<string, unknown>): Promise<string[]> {
  const read = new Set<string>();
  const fields = new Proxy(seed, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key);
    },
  });
  const request = {
    ctx: { actor: { accountId: 'account' } },
    claims: { accountId: 1, userId: 1, iat: 0, exp: 0 },
  } as unknown as Parameters<ActionHandler>[0];
  await expect(handler(request, { fields, actionUuid: null })).rejects.toBeInstanceOf(MondayActionFailure);
  return [...read].sort();
}

const HANDLERS: Record<string, { handler: ActionHandler; seed: Record<string, unknown> }> = {
  '/actions/enroll': { handler: enrollAction(config), seed: { boardId: 1, itemId: 2 } },
  '/actions/fill-timezone': { handler: fillTimezoneAction(config), seed: { boardId: 1, itemId: 2 } },
  '/actions/set-status': {
    handler: setStatusAction(config),
    seed: { boardId: 1, itemId: 2, statusColumnId: 'status' },
  },
};

const keysOf = (fields: Field[]) => fields.map((f) => f.key).sort();

describe('the monday app manifest', () => {
  it("is monday's manifest envelope with the scopes the board app uses", () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.app.name).toBe('Contactline');
    // me:read + account:read: the install reads `me { id account { id } }`; boards:*: items, columns, status writes.
    expect([...manifest.app.oauth.scopes].sort()).toEqual(['account:read', 'boards:read', 'boards:write', 'me:read']);
  });

  it('names only routes the board app serves, with the method monday uses', () => {
    const served = servedRoutes();
    const urls = manifestUrls();
    expect(urls.length).toBeGreaterThanOrEqual(9);
    for (const { key, url } of urls) {
      expect(url.startsWith(`${BASE}/`), url).toBe(true);
      const method = METHOD_OF[key];
      expect(method, `no method known for manifest key ${key}`).toBeDefined();
      expect(served, `${key} ${url}`).toContain(`${method} ${url.slice(BASE.length)}`);
    }
    // And the other way: every JWT-protected endpoint monday calls is in the manifest.
    const named = new Set(urls.map((u) => u.url.slice(BASE.length)));
    for (const route of served) {
      const [, routePath] = route.split(' ');
      if (routePath.startsWith('/actions/') || routePath.startsWith('/options/') || routePath.startsWith('/trigger/'))
        expect(named, route).toContain(routePath);
    }
  });

  it('declares the board view feature at the route that verifies its sessionToken', () => {
    const view = manifest.app.features.find((f: { type: string }) => f.type === 'AppFeatureBoardView');
    expect(view?.data.url).toBe(`${BASE}/views/board`);
    expect(servedRoutes()).toContain('get /views/board');
  });

  it('declares exactly the input fields each action reads', async () => {
    expect(actions.map((a) => a.runUrl!.slice(BASE.length)).sort()).toEqual(Object.keys(HANDLERS).sort());
    for (const action of actions) {
      const { handler, seed } = HANDLERS[action.runUrl!.slice(BASE.length)];
      expect(keysOf(action.inputFields), action.key).toEqual(await keysRead(handler, seed));
    }
    expect(keysOf(actions.find((a) => a.key === 'enroll_item')!.inputFields)).toEqual([
      'boardId',
      'itemId',
      'workflowId',
    ]);
    expect(keysOf(actions.find((a) => a.key === 'fill_timezone')!.inputFields)).toEqual([
      'boardId',
      'itemId',
      'phoneColumnId',
      'timezoneColumnId',
    ]);
    expect(keysOf(actions.find((a) => a.key === 'set_status_from_call')!.inputFields)).toEqual([
      'boardId',
      'callResult',
      'itemId',
      'statusColumnId',
    ]);
  });

  it('declares the trigger input fields the subscribe endpoint reads', () => {
    const source = fs.readFileSync(path.join(root, 'integration/monday/board-app.route.ts'), 'utf8');
    const subscribe = source.slice(
      source.indexOf("router.post('/trigger/subscribe'"),
      source.indexOf("router.post('/trigger/unsubscribe'"),
    );
    const read = [...new Set([...subscribe.matchAll(/\bfields\.(\w+)/g)].map((m) => m[1]))].sort();
    expect(read).toEqual(['agentId', 'boardId']);
    expect(keysOf(triggers[0].inputFields)).toEqual(read);
  });

  it('declares the trigger outputs a delivery carries, with their types and nullability', () => {
    const event: CallEndedEvent = {
      callId: 'call',
      contactId: 'contact',
      accountId: 'account',
      workflowId: 'workflow',
      agentId: 'agent',
      result: 'converted',
      endReason: 'assistant_ended_call',
      durationSeconds: 184,
      lastCall: true,
      transferred: false,
      testCall: false,
      endedAt: new Date(0).toISOString(),
    };
    const full = outputsOf(event, { boardId: '1234567890', itemId: '9876543210' });
    const outputs = triggers[0].outputFields;
    expect(keysOf(outputs)).toEqual(Object.keys(full).sort());
    for (const field of outputs) {
      expect(['string', 'number', 'boolean', 'date'], field.key).toContain(field.primitiveType);
      expect(typeof full[field.key as keyof typeof full], field.key).toBe(field.primitiveType);
    }
    // A call of a contact that did not come from a board (and without workflow or agent).
    const bare = outputsOf({ ...event, workflowId: null, agentId: null }, undefined);
    const nulls = Object.entries(bare)
      .filter(([, v]) => v === null)
      .map(([k]) => k)
      .sort();
    expect(
      outputs
        .filter((f) => f.nullable)
        .map((f) => f.key)
        .sort(),
    ).toEqual(nulls);
  });

  it('keeps field references consistent: custom field types, column filters, dependencies', () => {
    const typeKeys = fieldTypes.map((t) => t.key);
    for (const block of [...triggers, ...actions, ...builtInTriggers]) {
      const keys = new Set(block.inputFields.map((f) => f.key));
      for (const field of block.inputFields) {
        if (field.type === 'custom') expect(typeKeys, `${block.key}.${field.key}`).toContain(field.fieldType);
        if (field.type === 'column') expect(field.columnTypes?.length, `${block.key}.${field.key}`).toBeGreaterThan(0);
        for (const dependency of field.dependsOn ?? [])
          expect(keys, `${block.key}.${field.key} depends on ${dependency}`).toContain(dependency);
      }
    }
  });

  it("has recipe sentences of at most 255 characters per block that name only their blocks' fields", () => {
    const blockOf = (key: string, list: Block[]) => list.find((b) => b.key === key);
    for (const recipe of recipes) {
      const trigger = blockOf(recipe.trigger, triggers) ?? blockOf(recipe.trigger, builtInTriggers);
      const action = blockOf(recipe.action, actions);
      expect(trigger, recipe.key).toBeDefined();
      expect(action, recipe.key).toBeDefined();
      const parts: Array<[string, Block]> = [
        [recipe.sentence.trigger, trigger!],
        [recipe.sentence.action, action!],
      ];
      for (const [sentence, block] of parts) {
        expect(sentence.length, sentence).toBeLessThanOrEqual(255);
        const placeholders = [...sentence.matchAll(/\{([^{},]+),\s*([A-Za-z][A-Za-z0-9_]*)\}/g)];
        // Nothing that looks like a placeholder but is not `{LABEL, fieldKey}`.
        expect(sentence.replace(/\{([^{},]+),\s*([A-Za-z][A-Za-z0-9_]*)\}/g, ''), sentence).not.toMatch(/[{}]/);
        for (const [, , key] of placeholders)
          expect(
            block.inputFields.map((f) => f.key),
            `${recipe.key}: {…, ${key}}`,
          ).toContain(key);
      }
      // Every action field has a source; sentence sources appear in the sentence; trigger outputs exist.
      const sentenceKeys = (text: string) => [...text.matchAll(/\{[^{},]+,\s*(\w+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(recipe.sourceConfig).sort(), recipe.key).toEqual(keysOf(action!.inputFields));
      const fromSentence = Object.entries(recipe.sourceConfig)
        .filter(([, s]) => s.sourceKind === 'sentence')
        .map(([k]) => k)
        .sort();
      expect(sentenceKeys(recipe.sentence.action), recipe.key).toEqual(fromSentence);
      for (const source of Object.values(recipe.sourceConfig)) {
        if (source.sourceKind === 'trigger_output')
          expect(
            trigger!.outputFields.map((f) => f.key),
            recipe.key,
          ).toContain(source.outputFieldKey);
      }
      if (recipe.triggerSourceConfig) {
        const triggerSentence = Object.entries(recipe.triggerSourceConfig)
          .filter(([, s]) => s.sourceKind === 'sentence')
          .map(([k]) => k)
          .sort();
        expect(sentenceKeys(recipe.sentence.trigger), recipe.key).toEqual(triggerSentence);
      }
    }
  });
});
