// The webhook registration a run borrows and gives back. Before: a sandbox started with a non-loopback
// `serve --webhook-url` refused the run's restore of that very URL (403, loopback-only rule), and the
// run swallowed the refusal: CONFORMANT, exit 0, the registration left on the kit's dead receiver.
// After: the sandbox takes its operator's own URL back; serve warns of a non-loopback --webhook-url as
// of a non-loopback --host; and a restore the target refuses is said in the report and on the console.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookUrlWarning } from '../cli/commands/serve.js';
import type { Report } from '../core/report.js';
import { startSandbox, type RunningSandbox, type StartOptions } from '../sandbox/index.js';
import { MERCHANT_A } from '../sandbox/tenants.js';
import { runCli, spawnServe } from './cli-harness.js';

const OPERATORS_URL = 'http://10.9.9.9/hook';
const open: RunningSandbox[] = [];
// Closed when the file ends, not after each test: the two runs below share no sandbox and run at once.
afterAll(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A sandbox and its config in a scratch folder; the observation waits the least retry window the config allows (real seconds). */
async function target(options: StartOptions): Promise<{ sandbox: RunningSandbox; dir: string }> {
  const sandbox = await startSandbox({ port: 0, settleSeconds: 0, log: () => {}, deliveryLog: () => {}, ...options });
  open.push(sandbox);
  const dir = mkdtempSync(join(tmpdir(), 'svc-registration-'));
  writeFileSync(
    join(dir, 'target.json'),
    JSON.stringify({ ...sandbox.config, profile: { ...sandbox.config.profile, webhooks: { retryWithinSeconds: 1 } } }),
  );
  return { sandbox, dir };
}

const runHooks = (dir: string) =>
  runCli(['run', '--config', 'target.json', '--only', 'HOOK-SIGNATURE', '--runs', '1', '--report-dir', 'out'], { cwd: dir });
const notesOf = (dir: string) => (JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report).notes ?? [];

// Each run has its own sandbox and folder, and mostly waits out the webhook observation (real seconds): both at once.
describe.concurrent('a normal run gives the webhook registration back', () => {
  it("to the non-loopback URL the sandbox's operator gave (serve --webhook-url), which the sandbox takes back", async () => {
    const { sandbox, dir } = await target({ webhookUrl: OPERATORS_URL });
    const result = await runHooks(dir);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(sandbox.app.webhooks.urlOf(MERCHANT_A.id)).toBe(OPERATORS_URL);
    expect(result.stdout).not.toMatch(/could not restore/);
    expect(notesOf(dir)).toEqual([]);
  }, 30_000);

  it("and says so, in the report and on the console, when the target refuses to take it back: a note, not the target's failure", async () => {
    // Registered elsewhere (a developer console), not by the operator's --webhook-url: the control request may not name it.
    const { sandbox, dir } = await target({});
    sandbox.app.webhooks.register(MERCHANT_A.id, OPERATORS_URL);
    const result = await runHooks(dir);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const note =
      /could not restore the webhook registration \(the target answered 403 "url must be on this machine [^"]*"\): the target may still deliver to the kit's closed receiver http:\/\/127\.0\.0\.1:\d+\/webhooks; register http:\/\/10\.9\.9\.9\/hook again/;
    expect(result.stdout).toMatch(new RegExp(`  i ${note.source}`));
    expect(notesOf(dir)).toEqual([expect.stringMatching(note)]);
    expect(sandbox.app.webhooks.urlOf(MERCHANT_A.id)).not.toBe(OPERATORS_URL);
  }, 30_000);
});

describe('serve --webhook-url off this machine', () => {
  it.each(['http://10.9.9.9/hook', 'https://hooks.example.test/svc', 'http://169.254.169.254/'])(
    "warns of %s: the public demo credentials' deliveries go there",
    (url) => {
      expect(webhookUrlWarning(url)).toBe(
        `warning: --webhook-url ${url} is not on this machine: every demo merchant's webhooks, signed with the public demo secrets, are delivered there`,
      );
    },
  );

  it.each(['http://127.0.0.1:4020/webhooks', 'http://localhost:9/', 'http://[::1]:9/'])('stays quiet on loopback %s', (url) => {
    expect(webhookUrlWarning(url)).toBeUndefined();
  });

  it('says the warning when it starts (the built CLI)', async () => {
    const { child, stderr } = await spawnServe(['--quiet', '--webhook-url', OPERATORS_URL]);
    try {
      // Said before the banner, but on another pipe: it may come in a moment after (bounded: 1 s).
      for (let i = 0; i < 50 && !stderr().includes('warning'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(stderr()).toContain(`svc-conformance serve: warning: --webhook-url ${OPERATORS_URL} is not on this machine`);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
