import type { CheckResult } from '../core/report.js';
import { createRunState, executeCheck, newMeta } from './context.js';
import type { Section } from './sections.js';
import type { RunSettings } from './settings.js';

/** What a run tells whoever shows its progress. Listeners only observe. */
export interface RunListener {
  onSectionEnd?(section: string, results: readonly CheckResult[], durationMs: number): void;
  /** A check is waiting long (a target's Retry-After): said as it starts, so the run is not taken for hung. */
  onWait?(message: string): void;
}

/** Whether a check is selected by --only (a requirement or check id prefix; any of several). */
export function selected(settings: Pick<RunSettings, 'only'>, check: { id: string; requirement: string }): boolean {
  const only = settings.only;
  if (only === undefined || only.length === 0) return true;
  return only.some((prefix) => check.requirement.startsWith(prefix) || check.id.startsWith(prefix));
}

/**
 * Runs the checks of each section against the target, one after another, and returns every check's
 * result in order. Checks on balances and duplicates share state on the target, so nothing overlaps.
 * Never throws for anything a check does: a target's fault is 'failed', the kit's own is 'error'.
 */
export async function runChecks(settings: RunSettings, sections: readonly Section[], listener: RunListener = {}): Promise<CheckResult[]> {
  const state = createRunState(settings);
  if (listener.onWait !== undefined) state.client.onWait = (message) => listener.onWait?.(message);
  const results: CheckResult[] = [];
  try {
    for (const section of sections) {
      const sectionStart = performance.now();
      const sectionResults: CheckResult[] = [];
      for (const check of section.checks) {
        if (!selected(settings, check)) continue;
        const meta = newMeta(check);
        const started = performance.now();
        const outcome = await executeCheck(check, state, meta);
        sectionResults.push({ meta, state: outcome, durationMs: Math.round(performance.now() - started) });
      }
      if (sectionResults.length === 0) continue;
      results.push(...sectionResults);
      listener.onSectionEnd?.(section.name, sectionResults, performance.now() - sectionStart);
    }
  } finally {
    await state.client.close();
  }
  return results;
}
