import { describe, inject, test } from 'vitest';
import type { Check } from './check.js';
import { PROGRESS_ANNOTATION } from '../common/annotations.js';
import { createRunState, executeCheck, newMeta, type CheckMeta, type RunState } from './context.js';


let shared: { key: string; state: RunState } | undefined;

/** Registers checks as vitest tests under an interface section; their verdicts travel in task.meta. */
export function registerChecks(section: string, checks: readonly Check[]): void {
  const settings = inject('svcRun');
  const selected = checks.filter((c) => settings.only === undefined || c.requirement.startsWith(settings.only) || c.id.startsWith(settings.only));
  if (selected.length === 0) return;
  // Suite files run one after another in one worker: they share the run's client and ids.
  const key = `${settings.seed}:${settings.runNumber}:${settings.config.baseUrl}`;
  if (shared?.key !== key) shared = { key, state: createRunState(settings) };
  const state = shared.state;

  describe(section, () => {
    for (const check of selected) {
      test(`${check.requirement} ${check.title}`, async ({ task, skip, annotate }) => {
        const meta = newMeta(check);
        task.meta.svc = meta;
        // Long waits (a Retry-After) reach the console as they start, through vitest's annotations.
        state.client.onWait = (message) => void annotate(message, PROGRESS_ANNOTATION);
        const outcome = await executeCheck(check, state, meta);
        if (outcome === 'skipped') skip(meta.skipped);
        if (outcome === 'failed') throw new Error(meta.failure?.message ?? 'failed');
      });
    }
  });
}
