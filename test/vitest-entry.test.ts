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

/** A team's test file: the suite against the config beside it, narrowed as `options` (a JS object literal) says. */
const suiteFile = (config: string, options: string) =>
  `import { conformanceSuite } from 'svc-conformance/vitest';\nawait conformanceSuite({ config: './${config}', seed: 7, ${options} });\n`;
const NARROW = "runs: 2, only: ['AUTH-MISSING-', 'ERR-CONTENT-TYPE']";

/**
 * The team's vitest config: none of its own but this. scratchProject links the kit (as `npm link`
 * does), and vite would follow the link out of node_modules and transform the kit as the team's own
 * source (1.5 s a run); kept at its path, the kit is a dependency loaded by Node, as installed.
 */
const INSTALLED_KIT = { 'vitest.config.js': 'export default { resolve: { preserveSymlinks: true } };\n' };

interface Assertion {
  fullName: string;
  status: string;
  failureMessages: string[];
}
interface JsonResult {
  testResults: Array<{ name: string; assertionResults: Assertion[] }>;
}
interface VitestRun {
  code: number;
  output: string;
  /** The results of one test file of the project. */
  of(file: string): Assertion[];
}

/** `vitest run` in the project, as its own CI would call it; the JSON reporter's output and the console. */
function vitestRun(dir: string): Promise<VitestRun> {
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
        const json = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as JsonResult;
        const of = (file: string) => json.testResults.filter((f) => f.name.endsWith(`/${file}`)).flatMap((f) => f.assertionResults);
        resolve({ code: code ?? -1, output, of });
      } catch (error) {
        reject(new Error(`vitest wrote no result (exit ${code}):\n${output}\n${String(error)}`));
      }
    });
  });
}

const status = (results: Assertion[], wanted: string) => results.filter((a) => a.status === wanted);
const BEFORE = 'http://127.0.0.1:9/team-receiver';

// Two projects, one `vitest run` each: the targets that pass (exit 0) and those that fail (exit 1).
let good: RunningSandbox;
let broken: RunningSandbox;
let hooks: RunningSandbox;
let passing: VitestRun;
let failing: VitestRun;
let hooksDir = '';
beforeAll(async () => {
  good = await startSandbox({ port: 0 });
  broken = await startSandbox({ port: 0, faults: ['auth-accept-missing-signature'] });
  hooks = await startSandbox({ port: 0, settleSeconds: 0, log: () => {}, deliveryLog: () => {} });
  hooks.app.webhooks.register(MERCHANT_A.id, BEFORE);
  hooksDir = scratchProject({
    ...INSTALLED_KIT,
    'good.test.js': suiteFile('good.json', NARROW),
    // Registered first, so it runs after the suite's own afterAll: what the worker still holds once the suite has closed.
    'hooks.test.js': [
      "import { writeFileSync } from 'node:fs';",
      "import { afterAll } from 'vitest';",
      "import { conformanceSuite } from 'svc-conformance/vitest';",
      // A closed server's handle is let go on the event loop's next turn: only one still listening is counted.
      'afterAll(async () => {',
      '  await new Promise((next) => setImmediate(next));',
      "  writeFileSync('after.json', JSON.stringify(process.getActiveResourcesInfo()));",
      '});',
      "await conformanceSuite({ config: './hooks.json', seed: 7, runs: 1, only: ['HOOK-SIGNATURE'] });",
    ].join('\n'),
  });
  writeFileSync(join(hooksDir, 'good.json'), JSON.stringify(good.config));
  const hooksProfile = { ...hooks.config.profile, webhooks: { retryWithinSeconds: 1 } };
  writeFileSync(join(hooksDir, 'hooks.json'), JSON.stringify({ ...hooks.config, profile: hooksProfile }));
  const failingDir = scratchProject({
    ...INSTALLED_KIT,
    'broken.test.js': suiteFile('broken.json', NARROW),
    'buggy.test.js': suiteFile('buggy.json', "only: ['ACME-']"),
    'checks/buggy.mjs': [
      "import { defineCheck, defineRequirement } from 'svc-conformance';",
      "export const requirements = [defineRequirement({ id: 'ACME-BUGGY', title: 'a broken check', level: 'MUST', section: 'Acme' })];",
      "export const checks = [defineCheck({ id: 'acme-buggy', requirement: 'ACME-BUGGY', title: 'reads a field of nothing', async run() { return undefined.field; } })];",
    ].join('\n'),
    'wrong-secret.test.js': suiteFile('wrong-secret.json', "runs: 2, only: ['ORDER-']"),
  });
  writeFileSync(join(failingDir, 'broken.json'), JSON.stringify(broken.config));
  writeFileSync(join(failingDir, 'buggy.json'), JSON.stringify({ ...good.config, checks: ['./checks/buggy.mjs'] }));
  const wrongMerchant = { ...good.config.merchant, secretKey: 'sk_test_not_this_one' };
  writeFileSync(join(failingDir, 'wrong-secret.json'), JSON.stringify({ ...good.config, merchant: wrongMerchant }));
  [passing, failing] = await Promise.all([vitestRun(hooksDir), vitestRun(failingDir)]);
}, 90_000);
afterAll(async () => {
  await Promise.all([good, broken, hooks].map((sandbox) => sandbox?.close()));
});

describe('svc-conformance/vitest in a scratch project', () => {
  it('passes under plain vitest run against a conforming target', () => {
    expect(passing.code, passing.output).toBe(0);
    const results = passing.of('good.test.js');
    expect(results.map((a) => `${a.status} ${a.fullName}`)).toContain(
      `passed svc-conformance against ${good.baseUrl} (seed 7) Authentication AUTH-MISSING-SIGNATURE no X-SIGNATURE: 401`,
    );
    expect(status(results, 'failed')).toEqual([]);
    expect(status(results, 'passed').length).toBeGreaterThanOrEqual(4);
  });

  it('fails the check a broken target breaks, with expected and actual as a diff', () => {
    expect(failing.code).toBe(1);
    expect(status(failing.of('broken.test.js'), 'failed').map((a) => a.fullName)).toEqual([
      expect.stringContaining('AUTH-MISSING-SIGNATURE'),
    ]);
    expect(failing.output).toMatch(/CheckFailure: a request without X-SIGNATURE: expected HTTP 401, got \d+/);
    expect(failing.output).toMatch(/Expected: "HTTP 401"\s+Received: "HTTP \d+ \(application\/json/);
  });

  it("blames an exception in a team check's code on its module, not on the kit", () => {
    expect(status(failing.of('buggy.test.js'), 'failed').map((a) => a.failureMessages.join('\n'))).toEqual([
      // The verdict, as run decides it: what threw left its requirement not judged.
      expect.stringMatching(
        /svc-conformance: inconclusive: a team check threw \(first: team check acme-buggy in \.\/checks\/buggy\.mjs threw/,
      ),
      expect.stringMatching(/team check acme-buggy in \.\/checks\/buggy\.mjs threw: TypeError: .*fix \.\/checks\/buggy\.mjs/),
    ]);
    expect(failing.output).not.toMatch(/kit error/);
  });

  it('a wrong secret: one test says the run could not judge the target and names the keys; no check blames the target', () => {
    const results = failing.of('wrong-secret.test.js');
    expect(status(results, 'failed').map((a) => [a.fullName, a.failureMessages.join('\n')])).toEqual([
      [
        expect.stringContaining('the run could judge the target'),
        expect.stringMatching(/inconclusive: no correctly signed request was taken by the target .* the configured keys are likely wrong/),
      ],
    ]);
    expect(status(results, 'skipped').length).toBeGreaterThan(5);
    expect(failing.output).not.toContain('sk_test_not_this_one');
  });

  it('closes what a webhook check opened: the receiver stops listening and the registration it replaced is put back', () => {
    // The check's test, and the one that says the run could judge the target.
    expect(status(passing.of('hooks.test.js'), 'passed').length, passing.output).toBe(2);
    const left = JSON.parse(readFileSync(join(hooksDir, 'after.json'), 'utf8')) as string[];
    expect(left.filter((resource) => resource === 'TCPServerWrap')).toEqual([]);
    expect(hooks.app.webhooks.urlOf(MERCHANT_A.id)).toBe(BEFORE);
  });
});
