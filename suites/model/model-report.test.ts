// A model failure as the reports show it: the shrunk sequence as numbered steps in every form
// (report.json's evidence, the console, HTML, JUnit), and a replay line whose --seed and
// --replay-path rerun exactly that sequence, failing the same way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../core/verdict.js';
import { summaryLines } from '../../reports/console.js';
import { renderHtml } from '../../reports/html.js';
import { renderJUnit } from '../../reports/junit.js';
import { validateSchema } from '../../schemas/index.js';
import { catalog } from '../catalog.js';
import { sandboxTarget } from '../check-test-support.js';
import { modelChecks } from '../checks/model.js';
import { ModelCommand } from './commands.js';
import { codeOf } from './engine.js';

const lifecycle = modelChecks.find((c) => c.id === 'model-order-lifecycle')!;
const money = modelChecks.find((c) => c.id === 'model-money-conservation')!;

describe('a model failure in the report', () => {
  it('shows the shortest sequence as steps in every form, and its replay line reproduces it', async () => {
    const target = await sandboxTarget({ faults: ['state-paid-cancellable'] }, undefined, 3);
    try {
      const { outcome, meta } = await target.run(lifecycle);
      expect(outcome).toBe('failed');
      // create, pay, cancel: the pair (pay, cancel) with nothing between them
      expect(meta.failure!.steps).toHaveLength(3);
      expect(meta.failure!.steps![1]).toMatch(/^2\. checkout pay order#1 .*→ 200 \(now PAID\)$/);
      expect(meta.failure!.steps![2]).toMatch(/^3\. Order Cancel order#1 \(it was PAID\) → 200 CANCELLED \(.*PAID is final.*\)$/);

      const report = buildReport({
        results: [{ meta, state: outcome, durationMs: 1 }],
        catalog: catalog(),
        target: { baseUrl: target.sandbox.baseUrl, environment: 'sandbox', embeddedSandbox: false },
        seed: 42,
        runNumber: 1,
        runs: 3,
        strict: true,
        startedAt: new Date(0),
        durationMs: 1,
        version: 'test',
      });
      expect(validateSchema('report', JSON.parse(JSON.stringify(report))).valid).toBe(true);
      const requirement = report.requirements.find((r) => r.id === 'STATE-ORDER-LIFECYCLE')!;
      const evidence = requirement.evidence[0]!;
      expect(evidence.steps).toEqual(meta.failure!.steps);
      // The failing cancel itself is the first exchange of the evidence.
      expect(evidence.exchanges[0]!.request.url).toContain('/order/cancel');
      const path = meta.failure!.replayPath!;
      expect(evidence.reproduce?.run).toBe(`svc-conformance run --seed 42 --only model-order-lifecycle --replay-path ${path}`);
      const console = summaryLines(report, []).join('\n');
      const html = renderHtml(report);
      const junit = renderJUnit(report);
      for (const step of meta.failure!.steps!) {
        expect(console).toContain(step);
        expect(junit).toContain(step.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;'));
      }
      expect(html).toContain('Shortest failing sequence');
      expect(html).toContain('Order Cancel order#1 (it was PAID) → 200 CANCELLED');
      expect(console).toContain(`--replay-path ${path}`);

      // The replay line: the same check, seed and path, run again on its own (fresh ids of its own).
      target.state.settings.replayPath = path;
      const replayed = await target.run(lifecycle);
      expect(replayed.outcome).toBe('failed');
      expect(replayed.meta.failure!.steps!.map(withoutNumbers)).toEqual(meta.failure!.steps!.map(withoutNumbers));
      expect(replayed.meta.failure!.replayPath).toBe(path);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('a path of command codes (how a shrunk random sequence is named) replays that sequence', async () => {
    const target = await sandboxTarget({ faults: ['money-reversal-not-refunded'] }, undefined, 3);
    try {
      // initiate #1, settleSuccess #1, settleReversed #1, balance: codes are kind × 3 + slot
      target.state.settings.replayPath = '1:21:33:39:42';
      const { outcome, meta } = await target.run(money);
      expect(outcome).toBe('failed');
      expect(meta.failure!.message).toContain('MONEY-CONSERVATION');
      expect(meta.failure!.steps!.at(-1)).toMatch(/^\d+\. Balance Inquiry → 200 .*the model expects/);
      target.state.settings.replayPath = '9:9';
      const nonsense = await target.run(money);
      expect(nonsense.outcome).toBe('skipped');
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe('a random sequence is named by its commands’ codes', () => {
  it('whether fast-check hands a command bare or wrapped', () => {
    const command = new ModelCommand('initiate', 1);
    const [wrapped] = [...fc.sample(fc.commands([fc.constant(command)], { maxCommands: 1, size: 'max' }), { numRuns: 1, seed: 1 })[0]!];
    expect(wrapped).not.toBe(command);
    expect(codeOf(wrapped as ModelCommand)).toBe(command.code);
    expect(codeOf(command)).toBe(command.code);
  });
});

const withoutNumbers = (step: string) => step.replace(/\d+\.\d+ INR/g, 'AMOUNT').replace(/^\d+\. /, '');
