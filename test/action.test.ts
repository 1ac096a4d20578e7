// The GitHub Action (action.yml): its steps are the documented commands, its inputs reach the gate
// only through the environment (never interpolated into a script), the gate script runs the
// commands with the exit codes a job needs, and the README's examples use only inputs it has.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = new URL('..', import.meta.url).pathname;
interface Step { uses?: string; run?: string; shell?: string; if?: string; with?: Record<string, unknown>; env?: Record<string, string>; name?: string }
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }>; runs: { using: string; steps: Step[] } };

/** Runs the gate as the action's step does: the inputs as INPUT_* variables, GITHUB_ACTION_PATH at the kit. */
function gate(inputs: Record<string, string>): { code: number; out: string } {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', GITHUB_ACTION_PATH: ROOT };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] = value;
  const result = spawnSync('bash', [join(ROOT, 'scripts/gate.sh')], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status ?? -1, out: result.stdout + result.stderr };
}

describe('action.yml', () => {
  it('is a composite action: Node 20, npm ci of the kit, the gate script, the reports uploaded even when the gate fails', () => {
    expect(action.runs.using).toBe('composite');
    const [node, install, run, upload] = action.runs.steps;
    expect(node).toMatchObject({ uses: 'actions/setup-node@v4', with: { 'node-version': 20 } });
    expect(install).toMatchObject({ shell: 'bash', run: 'npm ci --prefix "$GITHUB_ACTION_PATH" --no-audit --no-fund' });
    expect(run).toMatchObject({ shell: 'bash', run: 'bash "$GITHUB_ACTION_PATH/scripts/gate.sh"' });
    expect(upload).toMatchObject({ if: 'always()', uses: 'actions/upload-artifact@v4', with: { path: '${{ inputs.report-dir }}' } });
  });

  it('passes every input to the gate through the environment, and none into a script', () => {
    const env = action.runs.steps[2]!.env!;
    for (const name of Object.keys(action.inputs)) expect(env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`]).toBe(`\${{ inputs.${name} }}`);
    expect(Object.keys(env)).toHaveLength(Object.keys(action.inputs).length);
    for (const step of action.runs.steps) expect(step.run ?? '').not.toContain('${{');
  });
});

describe('the gate script', () => {
  it('run: certifies the target and writes the reports; exit 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-action-'));
    const { code, out } = gate({ command: 'run', only: 'AUTH-MISSING-KEY,AUTH-MISSING-SIGNATURE', 'report-dir': dir });
    expect(code, out).toBe(0);
    expect(out).toMatch(/only AUTH-MISSING-KEY,AUTH-MISSING-SIGNATURE/);
    expect(existsSync(join(dir, 'report.json'))).toBe(true);
  }, 60_000);

  it('verify-client: a client that breaks a MUST fails the job (exit 1), its scenarios and strict passed on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-action-'));
    const { code, out } = gate({ command: 'verify-client', client: 'node examples/instant-retry-client.mjs', scenarios: 'create-order-503-once', strict: 'true', 'report-dir': dir });
    expect(code, out).toBe(1);
    expect(out).toMatch(/✗ CLIENT-RETRY-AFTER-STATUS \(MUST\)/);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({ strict: true, client: { scenarios: ['create-order-503-once'] } });
  }, 60_000);

  it('exit 2 for inputs that cannot make a command', () => {
    expect(gate({ command: 'verify-receiver' })).toMatchObject({ code: 2, out: 'svc-conformance action: verify-receiver needs the url input\n' });
    expect(gate({ command: 'verify-client' }).code).toBe(2);
    expect(gate({ command: 'certify' })).toMatchObject({ code: 2, out: expect.stringMatching(/command is run, verify-client or verify-receiver, not "certify"/) });
  });
});

describe('the README', () => {
  it('shows the action for both gates, with only the inputs it has', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => b.includes('svc-conformance@'));
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
  });
});
