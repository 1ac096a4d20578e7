// `svc-conformance/vitest` in a team's own project: a test file that calls conformanceSuite runs under
// plain `vitest run` (the team's, with its reporters), passes against a conforming target, and
// fails against a broken one with vitest's own expected/actual diff.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { MERCHANT_A } from '../sandbox/tenants.js';
import { KIT_ROOT, scratchProject } from './scratch-project.js';

const VITEST = join(KIT_ROOT, 'node_modules', 'vitest', 'vitest.mjs');

const TEST_FILE = `
import { conformanceSuite } from 'svc-conformance/vitest';

await conformanceSuite({ config: './target.json', seed: 7, runs: 2, only: ['AUTH-MISSING-', 'ERR-CONTENT-TYPE'] });
`;

/**
 * The team's vitest config: none of its own but this. scratchProject links the kit (as `npm link`
 * does), and vite would follow the link out of node_modules and transform the kit as the team's own
 * source (1.5 s a run); kept at its path, the kit is a dependency loaded by Node, as installed.
 */
const INSTALLED_KIT = { 'vitest.config.js': 'export default { resolve: { preserveSymlinks: true } };\n' };

interface JsonResult {
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{ assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }>;
}

/** `vitest run` in the project, as its own CI would call it; the JSON reporter's output and the console. */
function vitestRun(dir: string): Promise<{ code: number; json: JsonResult; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, 'run', '--reporter=json', '--outputFile=result.json', '--reporter=default'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      try {
        resolve({ code: code ?? -1, json: JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as JsonResult, output });
      } catch (error) {
        reject(new Error(`vitest wrote no result (exit ${code}):\n${output}\n${String(error)}`));
      }
    });
  });
}

let good: RunningSandbox;
let broken: RunningSandbox;
beforeAll(async () => {
  good = await startSandbox({ port: 0 });
  broken = await startSandbox({ port: 0, faults: ['auth-accept-missing-signature'] });
});
afterAll(async () => {
  await good.close();
  await broken.close();
});

describe.concurrent('svc-conformance/vitest in a scratch project', () => {
  it('passes under plain vitest run against a conforming target', async () => {
    const dir = scratchProject({ ...INSTALLED_KIT, 'conformance.test.js': TEST_FILE });
    writeFileSync(join(dir, 'target.json'), JSON.stringify(good.config));
    const { code, json, output } = await vitestRun(dir);
    expect(code, output).toBe(0);
    const names = json.testResults.flatMap((f) => f.assertionResults.map((a) => `${a.status} ${a.fullName}`));
    expect(names).toContain(
      `passed svc-conformance against ${good.baseUrl} (seed 7) Authentication AUTH-MISSING-SIGNATURE no X-SIGNATURE: 401`,
    );
    expect(json.numFailedTests).toBe(0);
    expect(json.numPassedTests).toBeGreaterThanOrEqual(4);
  }, 70_000);

  it('fails the check a broken target breaks, with expected and actual as a diff', async () => {
    const dir = scratchProject({ ...INSTALLED_KIT, 'conformance.test.js': TEST_FILE });
    writeFileSync(join(dir, 'target.json'), JSON.stringify(broken.config));
    const { code, json, output } = await vitestRun(dir);
    expect(code).toBe(1);
    const failed = json.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === 'failed'));
    expect(failed.map((a) => a.fullName)).toEqual([expect.stringContaining('AUTH-MISSING-SIGNATURE')]);
    expect(output).toMatch(/CheckFailure: a request without X-SIGNATURE: expected HTTP 401, got \d+/);
    expect(output).toMatch(/Expected: "HTTP 401"\s+Received: "HTTP \d+ \(application\/json/);
  }, 70_000);

  it("blames an exception in a team check's code on its module, not on the kit", async () => {
    const dir = scratchProject({
      ...INSTALLED_KIT,
      'conformance.test.js':
        "import { conformanceSuite } from 'svc-conformance/vitest';\nawait conformanceSuite({ config: './target.json', seed: 7, only: ['ACME-'] });\n",
      'checks/buggy.mjs': [
        "import { defineCheck, defineRequirement } from 'svc-conformance';",
        "export const requirements = [defineRequirement({ id: 'ACME-BUGGY', title: 'a broken check', level: 'MUST', section: 'Acme' })];",
        "export const checks = [defineCheck({ id: 'acme-buggy', requirement: 'ACME-BUGGY', title: 'reads a field of nothing', async run() { return undefined.field; } })];",
      ].join('\n'),
    });
    writeFileSync(join(dir, 'target.json'), JSON.stringify({ ...good.config, checks: ['./checks/buggy.mjs'] }));
    const { code, json, output } = await vitestRun(dir);
    expect(code, output).toBe(1);
    const failed = json.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === 'failed'));
    expect(failed.map((a) => a.failureMessages.join('\n'))).toEqual([
      // The verdict, as run decides it: what threw left its requirement not judged.
      expect.stringMatching(
        /svc-conformance: inconclusive: a team check threw \(first: team check acme-buggy in \.\/checks\/buggy\.mjs threw/,
      ),
      expect.stringMatching(/team check acme-buggy in \.\/checks\/buggy\.mjs threw: TypeError: .*fix \.\/checks\/buggy\.mjs/),
    ]);
    expect(output).not.toMatch(/kit error/);
  }, 70_000);

  it('a wrong secret: one test says the run could not judge the target and names the keys; no check blames the target', async () => {
    const dir = scratchProject({
      ...INSTALLED_KIT,
      'conformance.test.js':
        "import { conformanceSuite } from 'svc-conformance/vitest';\nawait conformanceSuite({ config: './target.json', seed: 7, runs: 2, only: ['ORDER-'] });\n",
    });
    writeFileSync(
      join(dir, 'target.json'),
      JSON.stringify({ ...good.config, merchant: { ...good.config.merchant, secretKey: 'sk_test_not_this_one' } }),
    );
    const { code, json, output } = await vitestRun(dir);
    expect(code, output).toBe(1);
    const results = json.testResults.flatMap((f) => f.assertionResults);
    expect(results.filter((a) => a.status === 'failed').map((a) => [a.fullName, a.failureMessages.join('\n')])).toEqual([
      [
        expect.stringContaining('the run could judge the target'),
        expect.stringMatching(/inconclusive: no correctly signed request was taken by the target .* the configured keys are likely wrong/),
      ],
    ]);
    expect(results.filter((a) => a.status === 'skipped').length).toBeGreaterThan(5);
    expect(output).not.toContain('sk_test_not_this_one');
  }, 70_000);

  it('closes what a webhook check opened: the receiver stops listening and the registration it replaced is put back', async () => {
    // Registered first, so it runs after the suite's own afterAll: what the worker still holds once the suite has closed.
    const dir = scratchProject({
      ...INSTALLED_KIT,
      'conformance.test.js': [
        "import { writeFileSync } from 'node:fs';",
        "import { afterAll } from 'vitest';",
        "import { conformanceSuite } from 'svc-conformance/vitest';",
        // A closed server's handle is let go on the event loop's next turn: only one still listening is counted.
        'afterAll(async () => {',
        '  await new Promise((next) => setImmediate(next));',
        "  writeFileSync('after.json', JSON.stringify(process.getActiveResourcesInfo()));",
        '});',
        "await conformanceSuite({ config: './target.json', seed: 7, runs: 1, only: ['HOOK-SIGNATURE'] });",
      ].join('\n'),
    });
    const sandbox = await startSandbox({ port: 0, settleSeconds: 0, log: () => {}, deliveryLog: () => {} });
    try {
      const before = 'http://127.0.0.1:9/team-receiver';
      sandbox.app.webhooks.register(MERCHANT_A.id, before);
      const profile = { ...sandbox.config.profile, webhooks: { retryWithinSeconds: 1 } };
      writeFileSync(join(dir, 'target.json'), JSON.stringify({ ...sandbox.config, profile }));
      const { code, json, output } = await vitestRun(dir);
      expect(code, output).toBe(0);
      // The check's test, and the one that says the run could judge the target.
      expect(json.numPassedTests, output).toBe(2);
      const left = JSON.parse(readFileSync(join(dir, 'after.json'), 'utf8')) as string[];
      expect(left.filter((resource) => resource === 'TCPServerWrap')).toEqual([]);
      expect(sandbox.app.webhooks.urlOf(MERCHANT_A.id)).toBe(before);
    } finally {
      await sandbox.close();
    }
  }, 70_000);
});
