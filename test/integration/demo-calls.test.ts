// `npm run demo:calls`, run as a user runs it: a child process that must exit 0 after printing
// every step of the story (real calls through the Vapi and Retell emulators), with the key
// results of each step. It runs at any real time: the demo's clock starts at a time the law lets
// the dialer call its contacts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess, type ProcessRun } from '../support/child-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function runDemo(): Promise<ProcessRun> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return runProcess(npm, ['run', '--silent', 'demo:calls'], { cwd: ROOT, env: { ...process.env } });
}

describe('npm run demo:calls', () => {
  it('plays the whole story and exits 0', async () => {
    const { code, stdout, stderr } = await runDemo();
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stderr).not.toContain('Demo failed');

    // Every step, in order.
    const steps = [...stdout.matchAll(/^── (\d+)\. /gm)].map((m) => Number(m[1]));
    expect(steps).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    // 3. Operator GraphQL: the keys are shown by their last four characters only.
    expect(stdout).toMatch(
      /setProviderCredentials\(vapi\s*\) → \{"provider":"vapi","apiKeyLastFour":"\w{4}","webhookSecretSet":true\}/,
    );
    expect(stdout).toMatch(
      /setProviderCredentials\(retell\) → \{"provider":"retell","apiKeyLastFour":"\w{4}","webhookSecretSet":true\}/,
    );
    expect(stdout).toMatch(/createAgent "Ava \(Vapi\)" → \w{8}… vapi, live/);
    expect(stdout).toMatch(/createAgent "Alex \(Retell\)" → \w{8}… retell, live/);
    // 2. The demo's clock: the real time, or a later one inside the law's calling hours in Los Angeles.
    expect(stdout).toMatch(
      /demo's clock {6}(the real time, \w+ (09|1\d):\d\d in Los Angeles|starts at \w+day 10:00 in Los Angeles \(\S+Z\))/,
    );
    // 4. Enrolled through REST, each with the contact's prior express written consent.
    expect(stdout).toMatch(/PUT \/api\/v1\/contacts\/upsert Ada Lovelace \(crm-1001\) → 201/);
    expect(stdout).toMatch(/PUT \/api\/v1\/contacts\/upsert Grace Hopper \(crm-1002\) → 201/);
    expect(stdout.match(/consent express_written \(web_form, obtained \S+Z\)/g)).toHaveLength(2);
    // 5. Placed through each SDK, with our call id; the Call rows queued with the provider's id.
    expect(stdout).toContain('Vapi   POST /call → 201');
    expect(stdout).toMatch(/assistantOverrides\.metadata \{"contactlineCallId":"[0-9a-f-]{36}"\}/);
    expect(stdout).toContain('Retell POST /v2/create-phone-call → 201');
    expect(stdout).toMatch(/metadata \{"contactline_call_id":"[0-9a-f-]{36}"\}/);
    expect(stdout).toMatch(/Call row [0-9a-f-]{36}: status queued, provider vapi, providerCallId \S+/);
    expect(stdout).toMatch(/Call row [0-9a-f-]{36}: status queued, provider retell, providerCallId \S+/);
    // ...each allowed by the calling rules, with the consent the upsert carried.
    expect(
      stdout.match(
        /allowed by the calling rules \S+ \(telemarketing\): US, US-CA, America\/Los_Angeles, consent express_written/g,
      ),
    ).toHaveLength(2);
    // 6. Each call runs its course (the demo's clock moves on to its report), then its signed webhooks are accepted.
    expect(stdout).toMatch(
      /Vapi {3}placed \d\d:\d\d:\d\d, picked up \d\d:\d\d:\d\d, ended \d\d:\d\d:\d\d \(95 s\), reported \d\d:\d\d:\d\d/,
    );
    expect(stdout).toMatch(
      /Retell placed \d\d:\d\d:\d\d, picked up \d\d:\d\d:\d\d, ended \d\d:\d\d:\d\d \(48 s\), reported \d\d:\d\d:\d\d/,
    );
    expect(stdout).toMatch(/the demo's clock moves on \d+ s, to when both providers report their calls/);
    expect(stdout).toMatch(/Vapi {3}end-of-call-report\s+→ 200/);
    expect(stdout).toMatch(/Retell call_analyzed\s+→ 200/);
    // 7. The REST API shows the scripted results.
    expect(stdout).toMatch(/Ada Lovelace: status converted, callCount 1, .*nextCallAt null/);
    expect(stdout).toMatch(
      /Grace Hopper: status reached, callCount 1, .*nextCallAt \d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z/,
    );
    expect(stdout).toMatch(/ended, result converted, endReason customer-ended-call, 95 s/);
    expect(stdout).toMatch(/ended, result callback_requested, endReason user_hangup, 48 s/);
    expect(stdout).toMatch(/startedAt \S+Z \(placed\), endedAt \S+Z/);
    expect(stdout).toMatch(/transcript → 200, 4 utterances/);
    expect(stdout).toMatch(/transcript → 200, 3 utterances/);
    // 8. Forged webhooks refused.
    expect(stdout).toMatch(/Vapi {3}end-of-call-report \(outcome rewritten to do_not_call\).* → 401/);
    expect(stdout).toMatch(/Retell call_analyzed, x-retell-signature made with another key → 401/);
    // 9. The summary.
    expect(stdout).toMatch(/Vapi\s+Ada Lovelace\s+\S+\s+200 200 200 200\s+converted\s+converted\s+1\s+—\s+4\s+401/);
    expect(stdout).toMatch(
      /Retell\s+Grace Hopper\s+\S+\s+200 200 200\s+callback_requested\s+reached\s+1\s+\S+Z\s+3\s+401/,
    );
    expect(stdout).toMatch(/stopped Contactline and both emulators/);
  }, 150_000);
});
