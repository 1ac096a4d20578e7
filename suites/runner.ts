import type { CheckResult } from '../core/report.js';
import { noSignedRequestAccepted } from '../core/misconfiguration.js';
import { signatureSchemeProbe } from './checks/signature-probe.js';
import type { Check } from './check.js';
import { closeRunState, createRunState, executeCheck, laneLock, newMeta, type RunState } from './context.js';
import type { Section } from './sections.js';
import type { RunSettings } from './settings.js';

/** What a run tells whoever shows its progress. Listeners only observe. */
export interface RunListener {
  /** A section's checks have all ended; sections are told in their listed order, whatever order they ended in. */
  onSectionEnd?(section: string, results: readonly CheckResult[], durationMs: number): void;
  /** A check is waiting long (a target's Retry-After): said as it starts, so the run is not taken for hung. */
  onWait?(message: string): void;
  /** A check ended: how many have, of how many, and how many requests are in flight now. */
  onProgress?(progress: { done: number; total: number; inFlight: number }): void;
}

/** Whether a check is selected by --only (a requirement or check id prefix; any of several) and not left out by --skip. */
export function selected(settings: Pick<RunSettings, 'only' | 'skip'>, check: { id: string; requirement: string }): boolean {
  const matches = (prefixes: readonly string[] | undefined) =>
    prefixes?.some((prefix) => check.requirement.startsWith(prefix) || check.id.startsWith(prefix)) ?? false;
  if (settings.only !== undefined && settings.only.length > 0 && !matches(settings.only)) return false;
  return !matches(settings.skip);
}

/** One check of the run, with its place: in the report's order, and the scope of its ids. */
interface Planned {
  check: Check;
  section: number;
  /** Its place among all the run's checks, selected or not: ids stay the same with or without --only. */
  scope: number;
}

/**
 * Runs the checks of every section against the target and returns each check's result in the
 * sections' order. With a concurrency of 1 the checks run one after another, as listed. Above it:
 * first each check that must run alone (the concurrent-duplicate race), then the rest side by side,
 * at most `concurrency` requests in flight; checks of one lane (those sharing the wallet's balance)
 * run one after another within it, and the lanes start first, since they take longest. A team's
 * checks start once the kit's have ended. Never throws for anything a check does: a target's fault
 * is 'failed', the kit's own is 'error'.
 */
export async function runChecks(settings: RunSettings, sections: readonly Section[], listener: RunListener = {}): Promise<CheckResult[]> {
  const state = createRunState(settings);
  try {
    return await runChecksIn(state, sections, listener);
  } finally {
    await closeRunState(state);
  }
}

/**
 * runChecks in a run state the caller made and closes (a run session, suites/session.ts): what the
 * checks opened (the webhook session) is still open when this returns.
 */
export async function runChecksIn(state: RunState, sections: readonly Section[], listener: RunListener = {}): Promise<CheckResult[]> {
  const { settings } = state;
  if (listener.onWait !== undefined) state.client.onWait = (message) => listener.onWait?.(message);
  const all: Planned[] = sections.flatMap((section, s) => section.checks.map((check) => ({ check, section: s, scope: 0 })));
  all.forEach((planned, i) => (planned.scope = i));
  const plan = all.filter((p) => selected(settings, p.check));
  const results = new Map<Planned, CheckResult>();
  const sectionTimes = sections.map(() => ({ start: Infinity, end: 0 }));
  let told = 0;
  const tellFinishedSections = () => {
    // A section is told once it and every section before it have ended: the console reads in order.
    for (; told < sections.length; told++) {
      const own = plan.filter((p) => p.section === told);
      if (own.some((p) => !results.has(p))) return;
      if (own.length === 0) continue;
      const time = sectionTimes[told]!;
      listener.onSectionEnd?.(
        sections[told]!.name,
        own.map((p) => results.get(p)!),
        time.end - time.start,
      );
    }
  };
  const runOne = async (planned: Planned) => {
    const meta = newMeta(planned.check);
    const started = performance.now();
    const time = sectionTimes[planned.section]!;
    time.start = Math.min(time.start, started);
    const outcome = await executeCheck(planned.check, state, meta, planned.scope);
    const ended = performance.now();
    time.end = Math.max(time.end, ended);
    results.set(planned, { meta, state: outcome, durationMs: Math.round(ended - started) });
    listener.onProgress?.({ done: results.size, total: plan.length, inFlight: state.requests.inFlight });
    tellFinishedSections();
  };
  const extra: CheckResult[] = [];
  const concurrency = state.requests.max;
  if (concurrency === 1) {
    for (const planned of plan) await runOne(planned);
  } else {
    const team = (p: Planned) => sections[p.section]!.team === true;
    for (const phase of [plan.filter((p) => !team(p)), plan.filter(team)]) {
      for (const planned of phase.filter((p) => p.check.alone)) await runOne(planned);
      await sideBySide(
        phase.filter((p) => !p.check.alone),
        concurrency,
        (planned) => {
          const lane = planned.check.lane;
          return lane === undefined ? runOne(planned) : laneLock(state, lane).run(() => runOne(planned));
        },
      );
    }
  }
  // No correctly signed request taken: the configuration, or a target signing another way? Ask it.
  const ran = plan.map((p) => results.get(p)!);
  if (noSignedRequestAccepted(ran)) extra.push(await probeSignatureScheme(state, all.length));
  return [...plan.map((p) => results.get(p)!), ...leftOutOfJudged(all, plan), ...extra];
}

/**
 * The checks --only or --skip left out of a requirement that the run judges otherwise: skipped, so
 * that requirement is not passed on part of its checks.
 */
function leftOutOfJudged(all: readonly Planned[], plan: readonly Planned[]): CheckResult[] {
  const chosen = new Set(plan);
  const judged = new Set(plan.map((p) => p.check.requirement));
  return all
    .filter((p) => !chosen.has(p) && judged.has(p.check.requirement))
    .map((p) => ({
      meta: { ...newMeta(p.check), skipped: 'not run: left out by --only or --skip, so its requirement was judged only in part' },
      state: 'skipped' as const,
      durationMs: 0,
    }));
}

/** Runs the signature-scheme probe as one more check, noting the variant the target accepted, if any. */
async function probeSignatureScheme(state: RunState, scope: number): Promise<CheckResult> {
  const probe = signatureSchemeProbe();
  const meta = newMeta(probe.check);
  const started = performance.now();
  const outcome = await executeCheck(probe.check, state, meta, scope);
  const variant = probe.acceptedVariant();
  if (variant !== undefined) meta.acceptedVariant = variant;
  const clues = probe.clues();
  if (clues.length > 0) meta.credentialClues = clues;
  return { meta, state: outcome, durationMs: Math.round(performance.now() - started) };
}

/**
 * Runs the planned checks with `workers` of them going at once: each lane is one unit, its checks in
 * order; every other check is a unit of its own. Lanes are taken first.
 */
async function sideBySide(plan: readonly Planned[], workers: number, runOne: (p: Planned) => Promise<void>): Promise<void> {
  const lanes = new Map<string, Planned[]>();
  const units: Array<() => Promise<void>> = [];
  for (const planned of plan) {
    const lane = planned.check.lane;
    if (lane === undefined) continue;
    if (!lanes.has(lane)) lanes.set(lane, []);
    lanes.get(lane)!.push(planned);
  }
  for (const members of lanes.values()) {
    units.push(async () => {
      for (const planned of members) await runOne(planned);
    });
  }
  for (const planned of plan) if (planned.check.lane === undefined) units.push(() => runOne(planned));
  let next = 0;
  const worker = async () => {
    while (next < units.length) await units[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(workers, units.length) }, worker));
}
