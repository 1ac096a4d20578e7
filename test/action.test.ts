// The GitHub Action (action.yml): its steps are the documented commands, its inputs reach the gate
// only through the environment (never interpolated into a script), the gate script runs the
// commands with the exit codes a job needs, and the documented jobs (docs/action.md) use only inputs it has.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { startSandbox } from '../sandbox/index.js';
import { TARGET_ENV_NAMES } from '../suites/config.js';
import { runBinAsync, runCli, spawnAsync } from './cli-harness.js';

const ROOT = new URL('..', import.meta.url).pathname;
interface Step {
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  name?: string;
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string; description?: string }>;
  outputs: Record<string, { description?: string; value?: string }>;
  runs: { using: string; steps: Step[] };
};
const GATE = readFileSync(join(ROOT, 'scripts/gate.sh'), 'utf8');
const BOOLEAN_INPUTS = ['strict', 'require-all', 'embedded-sandbox', 'allow-checks', 'allow-drivers', 'attest'];
const envName = (input: string) => `INPUT_${input.toUpperCase().replace(/-/g, '_')}`;

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-action-'));
}

interface Gated {
  code: number;
  stdout: string;
  out: string;
}

/**
 * Runs the gate as the action's step does: the inputs as INPUT_* variables, GITHUB_ACTION_PATH at the
 * kit, and nothing else of the tests' environment but PATH (no GITHUB_ACTIONS unless `env` sets it).
 * Asynchronous, so a sandbox started by the test keeps serving while the gate runs.
 */
function gate(inputs: Record<string, string>, env: Record<string, string> = {}): Promise<Gated> {
  const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', GITHUB_ACTION_PATH: ROOT, ...env };
  for (const [name, value] of Object.entries(inputs)) childEnv[envName(name)] = value;
  return spawnAsync('bash', [join(ROOT, 'scripts/gate.sh')], { cwd: ROOT, env: childEnv, timeoutMs: 25_000 }).then(
    ({ code, stdout, stderr }) => ({ code, stdout, out: stdout + stderr }),
  );
}

/** A reference sandbox with a duplicate race (DUP-CONCURRENT fails), its config file, and where a job summary would go. */
async function raceTarget(): Promise<{ dir: string; config: string; summaryFile: string }> {
  // The run is a process of its own (the gate script starts the command): the race's window is widened
  // from 5 ms so that its concurrent creates overlap on a loaded machine too (one CI run saw them miss).
  const sandbox = await startSandbox({ port: 0, settleSeconds: 0, faults: ['dup-race'], raceWindowMs: 300 });
  closers.push(sandbox.close);
  const dir = tempDir();
  const config = join(dir, 'target.json');
  // Real time: the revisit reads at once rather than 12 real seconds later (checks/revisit.test.ts waits).
  writeFileSync(config, JSON.stringify({ ...sandbox.config, profile: { ...sandbox.config.profile, revisitAfterSeconds: 0 } }));
  return { dir, config, summaryFile: join(dir, 'summary.md') };
}

describe('action.yml', () => {
  it('runs on a Node the kit supports, the built command with nothing installed, and uploads and attests even after a failing gate', () => {
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps;
    const gateAt = steps.findIndex((step) => step.id === 'gate');
    const setupNode = steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(Number(setupNode?.with?.['node-version']), `setup-node against engines ${engines}`).toBeGreaterThanOrEqual(
      Number(/^>=(\d+)/.exec(engines)![1]),
    );
    // The job starts from the committed bundle: no step installs or builds the kit.
    for (const step of steps) expect(step.run ?? '', step.name).not.toMatch(/\b(npm|npx|tsc)\b/);
    expect(GATE).toMatch(/^node "\$kit\/action\/svc-conformance\.mjs" "\$\{args\[@\]\}"/m);
    const script = /^bash "\$GITHUB_ACTION_PATH\/([^"]+)"$/.exec(steps[gateAt]?.run ?? '')?.[1];
    expect(script !== undefined && existsSync(join(ROOT, script)), `the gate step runs a script of the kit: ${steps[gateAt]?.run}`).toBe(
      true,
    );
    // A failing gate fails the step: a later step without always() would be skipped, losing the reports.
    const after = steps.slice(gateAt + 1);
    expect(after.length).toBeGreaterThan(0);
    for (const step of after) expect(step.if ?? '', step.uses ?? step.name).toMatch(/^always\(\)/);
    const upload = after.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with?.path).toBe('${{ inputs.report-dir }}');
    expect(GATE).toMatch(/report_dir="\$\{INPUT_REPORT_DIR:-/);
    const attest = after.find((step) => step.uses?.startsWith('actions/attest-build-provenance@'));
    expect(attest?.with?.['subject-path']).toBe('${{ steps.gate.outputs.report }}');
    expect(attest?.if).toContain("steps.gate.outputs.report != ''");
  });

  it('declares every input gate.sh reads, and the ones it takes as true or false default to false and say so', () => {
    const read = [...new Set([...GATE.matchAll(/\bINPUT_([A-Z_]+)\b/g)].map((m) => m[1]!.toLowerCase().replace(/_/g, '-')))];
    expect(read.filter((name) => action.inputs[name] === undefined)).toEqual([]);
    // gate.sh compares these to "true": an input it reads that way is a boolean input.
    const booleans = [...GATE.matchAll(/"\$([a-z_]+)" = (?:true|false)\b/g)].map((m) => m[1]!.replace(/_/g, '-'));
    expect(new Set(booleans)).toEqual(new Set(BOOLEAN_INPUTS));
    for (const name of BOOLEAN_INPUTS)
      expect(action.inputs[name], name).toMatchObject({ default: 'false', description: expect.stringContaining('(true or false)') });
    expect(action.inputs['sign-key']!.description).toMatch(/secrets/);
    expect(action.inputs.attest!.description).toMatch(/id-token: write, attestations: write, contents: read/);
  });

  it('passes inputs to the gate through the environment only, each one it passes read by gate.sh, and none into a script', () => {
    const env = action.runs.steps.find((step) => step.id === 'gate')!.env!;
    for (const [variable, value] of Object.entries(env)) {
      const input = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(value)?.[1];
      expect(input, variable).toBeDefined();
      expect(variable).toBe(envName(input!));
      expect(Object.keys(action.inputs)).toContain(input);
      expect(GATE, `gate.sh reads ${variable}`).toMatch(new RegExp(`\\$\\{?${variable}\\b`));
    }
    // Every input reaches a step: the gate's environment, or another step's with: or if:.
    const elsewhere = JSON.stringify(action.runs.steps.filter((step) => step.id !== 'gate').map((step) => [step.with, step.if]));
    for (const name of Object.keys(action.inputs))
      expect(env[envName(name)] !== undefined || elsewhere.includes(`inputs.${name}`), name).toBe(true);
    for (const step of action.runs.steps) expect(step.run ?? '').not.toContain('${{');
  });

  it("declares the verdict output as the gate step's", () => {
    expect(action.outputs).toEqual({
      verdict: {
        description: expect.stringMatching(/conformant, not-conformant or inconclusive/),
        value: '${{ steps.gate.outputs.verdict }}',
      },
    });
    expect(GATE).toMatch(/echo "verdict=/);
  });
});

// Each gate runs in its own folder against its own target, so they run at once.
describe.concurrent('the gate script', () => {
  it('run: certifies the target and writes the reports; exit 0', async () => {
    const dir = tempDir();
    const { code, out } = await gate({ command: 'run', only: 'AUTH-MISSING-KEY,AUTH-MISSING-SIGNATURE', 'report-dir': dir });
    expect(code, out).toBe(0);
    expect(out).toMatch(/only AUTH-MISSING-KEY,AUTH-MISSING-SIGNATURE/);
    expect(existsSync(join(dir, 'report.json'))).toBe(true);
  });

  it('verify-client: a client that breaks a MUST fails the job (exit 1), its scenarios and strict passed on', async () => {
    const dir = tempDir();
    const { code, out } = await gate({
      command: 'verify-client',
      client: 'node examples/instant-retry-client.mjs',
      scenarios: 'create-order-503-once',
      strict: 'true',
      'report-dir': dir,
    });
    expect(code, out).toBe(1);
    expect(out).toMatch(/✗ CLIENT-RETRY-AFTER-STATUS \(MUST\)/);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({
      strict: true,
      client: { scenarios: ['create-order-503-once'] },
    });
  });

  it.each([
    [{ command: 'verify-receiver' }, 'verify-receiver needs the url input'],
    [{ command: 'verify-client' }, 'verify-client needs the client input (the command that runs your client)'],
    [{ command: 'certify' }, 'command is run, verify-client or verify-receiver, not "certify"'],
    [{ strict: 'yes' }, 'the strict input takes true or false, not "yes"'],
    [{ 'require-all': '1' }, 'the require-all input takes true or false, not "1"'],
    [{ 'embedded-sandbox': 'on' }, 'the embedded-sandbox input takes true or false, not "on"'],
    [{ attest: 'TRUE' }, 'the attest input takes true or false, not "TRUE"'],
    [{ strict: 'true\nfalse' }, 'the strict input takes true or false, not "true?false"'],
    [
      { 'embedded-sandbox': 'true', config: 'staging.json' },
      "embedded-sandbox: true certifies the kit's own sandbox, but the config input names a target: drop one of them",
    ],
    [
      { command: 'verify-receiver', url: 'http://127.0.0.1:9/webhooks', 'embedded-sandbox': 'true' },
      'embedded-sandbox is an input of run; verify-receiver does not take it',
    ],
  ])('exit 2, one line, for inputs that cannot make a command: %j', async (inputs, line) => {
    expect(await gate(inputs, { GITHUB_ACTIONS: 'true' })).toMatchObject({ code: 2, out: `svc-conformance action: ${line}\n` });
  });

  it("in a job, run with no target is exit 2 (not a green certificate of the kit's own sandbox); embedded-sandbox: true runs it on purpose", async () => {
    expect(await gate({ command: 'run', only: 'AUTH-MISSING-KEY' }, { GITHUB_ACTIONS: 'true' })).toEqual({
      code: 2,
      stdout: '',
      out: "svc-conformance action: no target to certify: give the config input, SVC_BASE_URL (with SVC_API_KEY, SVC_SECRET_KEY, SVC_WALLET_ID) in the step's env, or ./svc-conformance.json; embedded-sandbox: true certifies the kit's own sandbox on purpose\n",
    });
    // SVC_BASE_URL set, even empty (a secret that did not reach the job): the kit's own exit 2 names it.
    const empty = await gate({ command: 'run' }, { GITHUB_ACTIONS: 'true', SVC_BASE_URL: '' });
    expect(empty.code).toBe(2);
    expect(empty.out).toMatch(/^svc-conformance run: SVC_BASE_URL is set but empty/);
    const onPurpose = await gate(
      { command: 'run', only: 'AUTH-MISSING-KEY', 'embedded-sandbox': 'true', 'report-dir': tempDir() },
      { GITHUB_ACTIONS: 'true' },
    );
    expect(onPurpose.code, onPurpose.out).toBe(0);
    expect(onPurpose.out).toMatch(/certifying the kit's own embedded reference sandbox/);
  });

  it('in a job: the job summary holds the verdict, partial, and the counts; the report is named for the attest step', async () => {
    const dir = tempDir();
    const summaryFile = join(dir, 'summary.md');
    const outputFile = join(dir, 'output');
    writeFileSync(summaryFile, '## an earlier step\n');
    const { code, out } = await gate(
      {
        command: 'run',
        only: 'AUTH-MISSING-KEY,AUTH-MISSING-SIGNATURE',
        'embedded-sandbox': 'true',
        attest: 'true',
        'report-dir': join(dir, 'reports'),
      },
      { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile, GITHUB_OUTPUT: outputFile },
    );
    expect(code, out).toBe(0);
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toMatch(
      /^## an earlier step\n### svc-conformance run\n\n\*\*Verdict: conformant, partial: 2 of \d+ requirements judged\*\*\n/,
    );
    expect(summary).toContain("Judged: the kit's own embedded reference sandbox at http://127.0.0.1:");
    expect(summary).toContain('| Passed | MUST failed | SHOULD warned | Skipped |\n| ---: | ---: | ---: | ---: |\n| 2 | 0 | 0 | 0 |\n');
    expect(summary).toMatch(/\nCoverage: partial: 2 of \d+ requirements judged\n/);
    expect(out).not.toContain('::error');
    expect(readFileSync(outputFile, 'utf8')).toBe(`verdict=conformant\nreport=${join(dir, 'reports', 'report.json')}\n`);
  });

  it("the verdict output is report.json's: not-conformant for a broken MUST, inconclusive for an unreachable target", async () => {
    const { dir, config } = await raceTarget();
    const outputFile = join(dir, 'output');
    const broken = await gate(
      { command: 'run', config, only: 'DUP-CONCURRENT', 'report-dir': join(dir, 'broken') },
      { GITHUB_OUTPUT: outputFile },
    );
    expect(broken.code, broken.out).toBe(1);
    expect(readFileSync(outputFile, 'utf8')).toBe('verdict=not-conformant\n');
    // The console says "inconclusive" too, but the output is read from the report: make them differ.
    const unreachable = join(dir, 'unreachable.json');
    writeFileSync(unreachable, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), baseUrl: 'http://127.0.0.1:9' }));
    writeFileSync(outputFile, '');
    const stopped = await gate({ command: 'run', config: unreachable, 'report-dir': join(dir, 'stopped') }, { GITHUB_OUTPUT: outputFile });
    expect(stopped.code, stopped.out).toBe(2);
    expect(JSON.parse(readFileSync(join(dir, 'stopped', 'report.json'), 'utf8'))).toMatchObject({ verdict: 'inconclusive' });
    expect(readFileSync(outputFile, 'utf8')).toBe('verdict=inconclusive\n');
  });

  it("a report.json left by an earlier step is not this step's: a command stopped by bad input outputs inconclusive, and attests nothing", async () => {
    const dir = tempDir();
    const reports = join(dir, 'reports');
    mkdirSync(reports);
    writeFileSync(join(reports, 'report.json'), JSON.stringify({ verdict: 'conformant' }));
    const outputFile = join(dir, 'output');
    const { code, out } = await gate(
      { command: 'run', 'embedded-sandbox': 'true', attest: 'true', 'report-dir': reports },
      { GITHUB_OUTPUT: outputFile, SVC_OTHER_SECRET_KEY: '' },
    );
    expect(code, out).toBe(2);
    expect(out).toMatch(/^svc-conformance run: SVC_OTHER_SECRET_KEY is set but empty/);
    expect(JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8'))).toEqual({ verdict: 'conformant' });
    expect(readFileSync(outputFile, 'utf8')).toBe('verdict=inconclusive\n');
  });

  it('in a job, a broken MUST: one ::error annotation on stdout naming it, the summary lists it, exit 1', async () => {
    const { dir, config, summaryFile } = await raceTarget();
    const { code, stdout, out } = await gate(
      { command: 'run', config, only: 'DUP-', 'report-dir': join(dir, 'reports') },
      { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile },
    );
    expect(code, out).toBe(1);
    const annotations = out.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations).toEqual([expect.stringMatching(/^::error title=DUP-CONCURRENT::MUST: \S/)]);
    expect(stdout).toContain(annotations[0]);
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toContain('**Verdict: not conformant**');
    expect(summary).toMatch(/\n\| DUP-CONCURRENT \| MUST \| \S[^\n]* \|\n/);
  });
});

describe.concurrent('the gate with a sign-key', () => {
  const key = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const keyLines = key.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));

  /** A stand-in for the kit's command: records its arguments and the key file it was given, prints its environment, exits as told. */
  function fakeKit(): { kit: string; record: string } {
    const kit = tempDir();
    mkdirSync(join(kit, 'action'));
    const record = join(kit, 'record.json');
    writeFileSync(
      join(kit, 'action', 'svc-conformance.mjs'),
      `
      import { createHash } from 'node:crypto';
      import { readFileSync, statSync, writeFileSync } from 'node:fs';
      const args = process.argv.slice(2);
      const keyFile = args.includes('--sign-key') ? args[args.indexOf('--sign-key') + 1] : undefined;
      const mode = keyFile === undefined ? undefined : statSync(keyFile).mode & 0o777;
      const digest = keyFile === undefined ? undefined : createHash('sha256').update(readFileSync(keyFile)).digest('hex');
      writeFileSync(${JSON.stringify(record)}, JSON.stringify({ args, keyFile, mode, digest, env: process.env }));
      process.stdout.write(JSON.stringify(process.env) + '\\n');
      process.exit(Number(process.env.FAKE_KIT_EXIT));
    `,
    );
    return { kit, record };
  }

  it('writes the key to a private file under RUNNER_TEMP, passes --sign-key FILE, removes it whatever the exit; the key in no output and no child environment', async () => {
    for (const exit of [0, 1]) {
      const { kit, record } = fakeKit();
      const runnerTemp = tempDir();
      const { code, out } = await gate(
        { command: 'verify-client', client: 'true', 'sign-key': key, 'report-dir': 'out' },
        { GITHUB_ACTION_PATH: kit, RUNNER_TEMP: runnerTemp, FAKE_KIT_EXIT: String(exit) },
      );
      expect(code, out).toBe(exit);
      const seen = JSON.parse(readFileSync(record, 'utf8')) as { args: string[]; keyFile: string; mode: number; digest: string };
      expect(seen.args).toEqual(['verify-client', '--report-dir', 'out', '--sign-key', seen.keyFile, '--', 'bash', '-c', 'true']);
      expect(seen.keyFile.startsWith(runnerTemp + '/')).toBe(true);
      expect(seen.mode).toBe(0o600);
      expect(seen.digest).toBe(createHash('sha256').update(key).digest('hex'));
      expect(readdirSync(runnerTemp)).toEqual([]);
      for (const line of keyLines) expect(out).not.toContain(line);
    }
  });

  it('with the kit itself: the report is signed, and the signature verifies against the public key', async () => {
    const pair = generateKeyPairSync('ed25519');
    const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const dir = tempDir();
    const publicKey = join(dir, 'pub.pem');
    writeFileSync(publicKey, pair.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const reports = join(dir, 'reports');
    const { code, out } = await gate(
      { command: 'run', 'embedded-sandbox': 'true', only: 'AUTH-MISSING-KEY', 'sign-key': pem, 'report-dir': reports },
      { GITHUB_ACTIONS: 'true', RUNNER_TEMP: tempDir() },
    );
    expect(code, out).toBe(0);
    expect(readdirSync(reports).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.json.sig', 'sandbox.json']);
    const verified = await runCli(['verify-report', join(reports, 'report.json'), '--public-key', publicKey]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });

  it("passes every P-CFG variable of the step's env (the secrets from secrets.*) to the command as it is", async () => {
    const { kit, record } = fakeKit();
    const variables = Object.fromEntries(
      TARGET_ENV_NAMES.map((name, i) => [name, name === 'SVC_BASE_URL' ? 'https://sbx.example.test' : `value-${i} with $pace & "quotes"`]),
    );
    const { code, out } = await gate(
      { command: 'run' },
      { GITHUB_ACTION_PATH: kit, GITHUB_ACTIONS: 'true', FAKE_KIT_EXIT: '0', ...variables },
    );
    expect(code, out).toBe(0);
    const { env } = JSON.parse(readFileSync(record, 'utf8')) as { env: Record<string, string> };
    expect(TARGET_ENV_NAMES).toEqual(expect.arrayContaining(['SVC_OTHER_SECRET_KEY', 'SVC_OTHER_ENV_SECRET_KEY', 'SVC_OTHER_WALLET_ID']));
    expect(Object.fromEntries(TARGET_ENV_NAMES.map((name) => [name, env[name]]))).toEqual(variables);
  });

  it.each(['allow-checks', 'allow-drivers'])("%s: true passes --%s to run (a found config's code runs only when asked)", async (name) => {
    for (const [input, passed] of [
      ['true', true],
      ['false', false],
      ['', false],
    ] as const) {
      const { kit, record } = fakeKit();
      const { code, out } = await gate(
        { command: 'run', [name]: input, 'sign-key': key },
        { GITHUB_ACTION_PATH: kit, RUNNER_TEMP: tempDir(), FAKE_KIT_EXIT: '0' },
      );
      expect(code, out).toBe(0);
      const { args } = JSON.parse(readFileSync(record, 'utf8')) as { args: string[] };
      expect(args.includes(`--${name}`), input).toBe(passed);
    }
  });

  it('a bad boolean is refused before the key is written anywhere', async () => {
    const runnerTemp = tempDir();
    const { code, out } = await gate({ command: 'run', strict: 'yes', 'sign-key': key }, { RUNNER_TEMP: runnerTemp });
    expect({ code, out }).toEqual({ code: 2, out: 'svc-conformance action: the strict input takes true or false, not "yes"\n' });
    expect(readdirSync(runnerTemp)).toEqual([]);
  });
});

describe('the GitHub forms of finish()', () => {
  it('--format json in a job: stdout is the JSON object alone, the annotations go to stderr, the summary to its file', async () => {
    const { dir, config, summaryFile } = await raceTarget();
    const result = await runCli(
      ['run', '--config', config, '--only', 'DUP-CONCURRENT', '--format', 'json', '--report-dir', join(dir, 'reports')],
      { cwd: dir, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile } },
    );
    expect(result.code, result.stderr).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ verdict: 'not-conformant', failed: [{ id: 'DUP-CONCURRENT' }] });
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^::error title=DUP-CONCURRENT::MUST: /m);
    expect(readFileSync(summaryFile, 'utf8')).toContain('| DUP-CONCURRENT | MUST |');
  });

  it('outside a job (GITHUB_ACTIONS not "true") there is neither', async () => {
    const dir = tempDir();
    const summaryFile = join(dir, 'summary.md');
    writeFileSync(summaryFile, '');
    const result = await runCli(['run', '--only', 'AUTH-MISSING-KEY', '--report-dir', join(dir, 'reports')], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'false', GITHUB_STEP_SUMMARY: summaryFile },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(summaryFile, 'utf8')).toBe('');
  });

  it("the kit's own test helpers never pass the job's GitHub variables to the CLI they spawn", async () => {
    const dir = tempDir();
    const summaryFile = join(dir, 'summary.md');
    writeFileSync(summaryFile, '');
    const saved = { GITHUB_ACTIONS: process.env.GITHUB_ACTIONS, GITHUB_STEP_SUMMARY: process.env.GITHUB_STEP_SUMMARY };
    process.env.GITHUB_ACTIONS = 'true';
    process.env.GITHUB_STEP_SUMMARY = summaryFile;
    try {
      const result = await runBinAsync(['run', '--only', 'AUTH-MISSING-KEY', '--report-dir', join(dir, 'reports')], {
        cwd: dir,
        timeoutMs: 25_000,
      });
      expect(result.code, result.stderr).toBe(0);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(readFileSync(summaryFile, 'utf8')).toBe('');
  });
});

describe('docs/action.md', () => {
  it('shows the action for both gates, with only the inputs it has', () => {
    const page = readFileSync(join(ROOT, 'docs', 'action.md'), 'utf8');
    const blocks = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => b.includes('svc-conformance@'));
    const uses: Step[] = [];
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value !== null && typeof value === 'object') {
        const step = value as Step;
        if (typeof step.uses === 'string' && step.uses.includes('svc-conformance@')) uses.push(step);
        Object.values(value).forEach(collect);
      }
    };
    for (const block of blocks) for (const doc of parseAllDocuments(block)) collect(doc.toJS());
    const commands = uses.map((s) => (s.with?.command as string | undefined) ?? action.inputs.command!.default);
    expect(commands).toEqual(expect.arrayContaining(['run', 'verify-client']));
    for (const step of uses) for (const key of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs)).toContain(key);
    // The run example gives every secret in the step's env from secrets.*, with P-CFG's names alone.
    const run = uses.find((step) => (step.with?.command ?? 'run') === 'run')!;
    const env = run.env ?? {};
    expect(Object.keys(env).filter((name) => !TARGET_ENV_NAMES.includes(name))).toEqual([]);
    const secrets = TARGET_ENV_NAMES.filter((name) => name.endsWith('_SECRET_KEY'));
    expect(secrets).toHaveLength(3);
    for (const name of secrets) expect(env[name], name).toBe(`\${{ secrets.${name} }}`);
  });

  it('names every input and output the action has', () => {
    const page = readFileSync(join(ROOT, 'docs', 'action.md'), 'utf8');
    const named = Object.keys({ ...action.inputs, ...action.outputs }).filter((name) => !page.includes(`\`${name}\``));
    expect(named).toEqual([]);
  });
});
