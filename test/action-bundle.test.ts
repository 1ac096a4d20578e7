// The Action's command is the committed bundle action/svc-conformance.mjs (`npm run build:action`):
// it must be what the sources build today, and it must run with nothing but the files the Action
// checks out (no node_modules, no dist/), as action.yml runs it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { spawnAsync } from './cli-harness.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BUNDLE_DIR = 'action';
const BUNDLE = `${BUNDLE_DIR}/svc-conformance.mjs`;

/** What the Action needs of the repository at run time: its definition, the gate, the bundle, and the data files the kit reads. */
const ACTION_FILES = [
  'action.yml',
  'scripts/gate.sh',
  'package.json',
  ...readdirSync(join(ROOT, BUNDLE_DIR)).map((name) => `${BUNDLE_DIR}/${name}`),
  ...readdirSync(join(ROOT, 'schemas'))
    .filter((name) => name.endsWith('.schema.json'))
    .map((name) => `schemas/${name}`),
  'suites/catalog.json',
  'clients/catalog.json',
  'clients/receiver-catalog.json',
  'docs/profile.md',
];

describe('the committed action bundle', () => {
  it('is what `npm run build:action` makes of the sources now, one file with no source map, committed', () => {
    const fresh = mkdtempSync(join(tmpdir(), 'svc-action-build-'));
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build-action.mjs'), fresh], { cwd: ROOT, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    const names = readdirSync(fresh).sort();
    expect(names).toEqual(['THIRD-PARTY-LICENSES.txt', 'svc-conformance.mjs']);
    for (const name of names) {
      const committed = join(ROOT, BUNDLE_DIR, name);
      const same = existsSync(committed) && readFileSync(committed).equals(readFileSync(join(fresh, name)));
      expect(same, `${BUNDLE_DIR}/${name} is stale against the sources: run \`npm run build:action\` and commit ${BUNDLE_DIR}/`).toBe(true);
    }
    expect(readdirSync(join(ROOT, BUNDLE_DIR)).sort()).toEqual(names);
    expect(readFileSync(join(ROOT, BUNDLE), 'utf8')).not.toMatch(/sourceMappingURL/);
    // Tracked and not ignored: the Action checks out only what the repository holds.
    const tracked = spawnSync('git', ['ls-files', '--error-unmatch', BUNDLE], { cwd: ROOT, encoding: 'utf8' });
    expect(tracked.status, `${BUNDLE} is not committed: ${tracked.stderr}`).toBe(0);
  });

  // A whole certification and a client's run, each a process: about 10 s on an idle machine, hence the timeout.
  it('runs a certification to its verdict from a copy of only the files the Action needs, as action.yml runs it', async () => {
    const kit = mkdtempSync(join(tmpdir(), 'svc-action-kit-'));
    for (const file of ACTION_FILES) {
      mkdirSync(dirname(join(kit, file)), { recursive: true });
      cpSync(join(ROOT, file), join(kit, file));
    }
    // A node_modules above the copy would hide a package the bundle lacks.
    for (let dir = kit; dirname(dir) !== dir; dir = dirname(dir)) expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
    const work = mkdtempSync(join(tmpdir(), 'svc-action-job-'));
    const gateStep = (
      parse(readFileSync(join(kit, 'action.yml'), 'utf8')) as { runs: { steps: Array<{ id?: string; run?: string }> } }
    ).runs.steps.find((step) => step.id === 'gate')!;
    const job = (inputs: Record<string, string>) =>
      spawnAsync('bash', ['-c', gateStep.run!], {
        cwd: work,
        env: {
          PATH: process.env.PATH ?? '',
          GITHUB_ACTION_PATH: kit,
          GITHUB_ACTIONS: 'true',
          GITHUB_OUTPUT: join(work, 'output'),
          GITHUB_STEP_SUMMARY: join(work, 'summary.md'),
          RUNNER_TEMP: work,
          ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase().replace(/-/g, '_')}`, value])),
        },
        timeoutMs: 90_000,
      });

    const run = await job({ command: 'run', 'embedded-sandbox': 'true', 'report-dir': 'reports' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^✓ CONFORMANT {2}the kit's own embedded reference sandbox/m);
    const report = JSON.parse(readFileSync(join(work, 'reports', 'report.json'), 'utf8')) as {
      verdict: string;
      coverage: { judged: number; total: number };
    };
    // The whole catalog judged but what needs a key the embedded sandbox leaves out: a real run, not a narrowed one.
    expect(report.verdict).toBe('conformant');
    expect(report.coverage.judged).toBeGreaterThan(100);
    expect(readFileSync(join(work, 'output'), 'utf8')).toBe('verdict=conformant\n');
    expect(readFileSync(join(work, 'summary.md'), 'utf8')).toMatch(/\*\*Verdict: conformant/);

    // verify-client reads the client catalog from the copy too.
    const client = await job({
      command: 'verify-client',
      client: `node ${join(ROOT, 'examples/instant-retry-client.mjs')}`,
      'report-dir': 'client',
    });
    expect(client.code, client.stdout + client.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(work, 'client', 'report.json'), 'utf8'))).toMatchObject({ verdict: 'conformant' });
  }, 120_000);
});
