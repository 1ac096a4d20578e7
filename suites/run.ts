// One run of the conformance checks, from open to close: `run`, the vitest entry and the proof all
// open one, so the order of its steps and what is closed at the end are written once.
import { misconfiguration, noSignedRequestAccepted, plainlySignedTally } from '../core/misconfiguration.js';
import type { Reporter } from '../core/reporter.js';
import type { CheckResult, Report, Requirement } from '../core/report.js';
import { buildReport, type BuildInput } from '../core/verdict.js';
import type { RunningSandbox } from '../sandbox/index.js';
import { catalog } from './catalog.js';
import type { Check } from './check.js';
import { executeCheck, newMeta } from './check-context.js';
import { signatureSchemeProbe } from './checks/signature-probe.js';
import type { TargetConfig } from './config.js';
import { openTarget, type OpenedTarget, type RunTarget } from './embedded.js';
import { redactor } from './redact.js';
import { closeRunState, createRunState, laneLock, type RunState } from './run-state.js';
import { SECTIONS, type Section } from './sections.js';
import { fillSettings, type RunInput, type RunSettings } from './settings.js';
import { loadTeamChecks, type LoadTeamChecksOptions } from './team-checks.js';
import { refuseUnaskedDrivers } from './drivers.js';

/** What a run is opened with: its target, how team checks load, and what it is given of its settings. */
export interface RunOptions extends RunInput {
  target: RunTarget;
  teamChecks?: LoadTeamChecksOptions;
  /** These sections instead of the kit's and the team's (a test's own checks). */
  sections?: readonly Section[];
}

/** What a report of the run takes besides its results: the rest comes from the run itself. */
export type ReportFields = Omit<BuildInput, 'results' | 'catalog' | 'target' | 'seed' | 'runNumber' | 'runs' | 'durationMs'> &
  Partial<Pick<BuildInput, 'target'>> & { certification?: Report['certification'] };

/** One check of the run, with its place: in the report's order, and the scope of its ids. */
interface Planned {
  check: Check;
  section: number;
  /** Its place among all the run's checks, selected or not: ids stay the same with or without --only. */
  scope: number;
}

/** Correctly signed answers, none taken, after which checks other than authentication's are held back. */
const HOLD_BACK_AFTER = 30;

export class ConformanceRun {
  private reporters: readonly Reporter[] = [];
  private stateClosed: Promise<void> | undefined;
  private closed: Promise<void> | undefined;
  readonly state: RunState;

  private constructor(
    private readonly target: OpenedTarget,
    readonly settings: RunSettings,
    /** The kit's sections, then the team's. */
    readonly sections: readonly Section[],
    /** The kit's catalog, then the team's requirements. */
    readonly requirements: readonly Requirement[],
  ) {
    this.state = createRunState(settings, (exchange) => this.reporters.forEach((r) => r.onExchange?.(exchange)));
  }

  /** Opens the config (or the embedded sandbox, held with settings.hold), team checks and settings.
   *  A config or team-check error is a ConfigError; nothing is left open. */
  static async open(options: RunOptions): Promise<ConformanceRun> {
    const { target, teamChecks, sections, ...given } = options;
    const opened = await openTarget(target, given.clock, given.hold);
    try {
      refuseUnaskedDrivers(opened.config, teamChecks);
      const team = sections === undefined ? await loadTeamChecks(opened.config, teamChecks) : { sections: [], requirements: [] };
      const settings = fillSettings(given, opened.config, opened.clock);
      return new ConformanceRun(opened, settings, sections ?? [...SECTIONS, ...team.sections], [...catalog(), ...team.requirements]);
    } catch (error) {
      await opened.close();
      throw error;
    }
  }

  get config(): TargetConfig {
    return this.settings.config;
  }

  /** The embedded sandbox, when the run started one; it closes with the run. */
  get sandbox(): RunningSandbox | undefined {
    return this.target.sandbox;
  }

  /** How many team checks the config's modules brought. */
  get teamCheckCount(): number {
    return this.sections.filter((s) => s.team === true).reduce((n, s) => n + s.checks.length, 0);
  }

  /** Every check of the run's sections, selected or not, in the report's order. */
  private plan(): Planned[] {
    const all = this.sections.flatMap((section, s) => section.checks.map((check) => ({ check, section: s })));
    return all.map((planned, scope) => ({ ...planned, scope }));
  }

  /** Runs the selected checks, then closes what they opened. A target's fault is 'failed', the kit's own 'error': no throw. */
  async run(reporters: readonly Reporter[] = []): Promise<CheckResult[]> {
    this.reporters = reporters;
    if (reporters.some((r) => r.onWait !== undefined))
      this.state.client.onWait = (message) => reporters.forEach((r) => r.onWait?.(message));
    try {
      return await this.schedule();
    } finally {
      await this.closeState();
    }
  }

  /** The report of the run's results: the verdict decided once, by buildReport. */
  report(results: readonly CheckResult[], fields: ReportFields): Report {
    const { config, sandbox } = this;
    const { certification, ...rest } = fields;
    const report = buildReport({
      target: { baseUrl: redactor(config)(config.baseUrl), environment: config.environment, embeddedSandbox: sandbox !== undefined },
      seed: this.settings.seed,
      runNumber: this.settings.runNumber,
      runs: this.settings.runs,
      concurrency: this.settings.concurrency,
      ...rest,
      // What the reports must say of the run that is no verdict (the embedded sandbox's faster clock).
      notes: [...this.target.notes, ...(fields.notes ?? [])],
      results,
      catalog: this.requirements,
      durationMs: Date.now() - fields.startedAt.getTime(),
    });
    return certification === undefined ? report : { ...report, certification };
  }

  /** Closes everything the run opened, once: its state (if run() has not), then the embedded sandbox. */
  close(): Promise<void> {
    return (this.closed ??= (async () => {
      try {
        await this.closeState();
      } finally {
        await this.target.close();
      }
    })());
  }

  private closeState(): Promise<void> {
    return (this.stateClosed ??= closeRunState(this.state));
  }

  /** At concurrency 1, as listed. Above it: checks that run alone, then the rest side by side, lanes
   *  first (they take longest); a team's checks after the kit's. Checks marked `last` end the run. */
  private async schedule(): Promise<CheckResult[]> {
    const all = this.plan();
    const plan = all.filter((p) => selected(this.settings, p.check));
    const results = new Map<Planned, CheckResult>();
    const tell = sectionTeller(this.sections, plan, results, this.reporters);
    const runOne = async (planned: Planned) => {
      tell.started(planned, performance.now());
      const result = this.heldBack(planned.check, [...results.values()]) ?? (await this.runCheck(planned.check, planned.scope));
      tell.ended(planned, performance.now());
      results.set(planned, result);
      const progress = { done: results.size, total: plan.length, inFlight: this.state.requests.inFlight };
      this.reporters.forEach((r) => r.onCheckEnd?.(result, progress));
      tell.finished();
    };
    const concurrency = this.state.requests.max;
    const last = (p: Planned) => p.check.last === true;
    const team = (p: Planned) => this.sections[p.section]!.team === true;
    const adds = (p: Planned) => p.check.addsOnly === true;
    for (const phase of [plan.filter((p) => !team(p) && !last(p)), plan.filter((p) => team(p) && !last(p))]) {
      // One at a time, the checks that only add to a lane after the rest, as side by side: the same wallet history.
      if (concurrency === 1) for (const planned of [...phase.filter((p) => !adds(p)), ...phase.filter(adds)]) await runOne(planned);
      else {
        for (const planned of phase.filter((p) => p.check.alone)) await runOne(planned);
        await sideBySide(
          phase.filter((p) => !p.check.alone),
          concurrency,
          runOne,
          this.state,
        );
      }
    }
    // The last checks one after another, as listed: each reads what the one before may have written.
    for (const planned of plan.filter(last)) await runOne(planned);
    const ran = plan.map((p) => results.get(p)!);
    // No correctly signed request taken: the configuration, or a target signing another way? Ask it.
    const extra = noSignedRequestAccepted(ran) ? [await this.probeSignatureScheme(all.length)] : [];
    return [...ran, ...leftOutOfJudged(all, plan), ...extra];
  }

  /** A check not sent once enough correctly signed requests were all refused: the configuration, not
   *  the target, is then the cause, and a real gateway is spared the rest. Authentication runs on. */
  private heldBack(check: Check, done: readonly CheckResult[]): CheckResult | undefined {
    if (/^(AUTH|SIGN)-/.test(check.requirement) || plainlySignedTally(done).answered < HOLD_BACK_AFTER) return undefined;
    if (misconfiguration(done, this.settings.config.baseUrl).length === 0) return undefined;
    const skipped = `not run: the run stopped sending once ${HOLD_BACK_AFTER} or more correctly signed requests had all been refused (see why the run could not judge)`;
    return { meta: { ...newMeta(check), skipped }, state: 'skipped', durationMs: 0 };
  }

  /** Runs one check in its scope of ids; its result as the report keeps it. */
  private async runCheck(check: Check, scope: number): Promise<CheckResult> {
    const meta = newMeta(check);
    const started = performance.now();
    const state = await executeCheck(check, this.state, meta, scope);
    return { meta, state, durationMs: Math.round(performance.now() - started) };
  }

  /** The signature-scheme probe as one more check, noting the variant the target accepted, if any. */
  private async probeSignatureScheme(scope: number): Promise<CheckResult> {
    const probe = signatureSchemeProbe();
    const result = await this.runCheck(probe.check, scope);
    const variant = probe.acceptedVariant();
    if (variant !== undefined) result.meta.acceptedVariant = variant;
    const clues = probe.clues();
    if (clues.length > 0) result.meta.credentialClues = clues;
    return result;
  }
}

/** Whether a check is selected by --only (a requirement or check id prefix; any of several) and not left out by --skip. */
export function selected(settings: Pick<RunSettings, 'only' | 'skip'>, check: { id: string; requirement: string }): boolean {
  const matches = (prefixes: readonly string[] | undefined) =>
    prefixes?.some((prefix) => check.requirement.startsWith(prefix) || check.id.startsWith(prefix)) ?? false;
  if (settings.only !== undefined && settings.only.length > 0 && !matches(settings.only)) return false;
  return !matches(settings.skip);
}

/** Tells a section's end once it and every section before it have ended: the console reads in order. */
function sectionTeller(
  sections: readonly Section[],
  plan: readonly Planned[],
  results: ReadonlyMap<Planned, CheckResult>,
  reporters: readonly Reporter[],
) {
  const times = sections.map(() => ({ start: Infinity, end: 0 }));
  let told = 0;
  return {
    started: (planned: Planned, at: number) => (times[planned.section]!.start = Math.min(times[planned.section]!.start, at)),
    ended: (planned: Planned, at: number) => (times[planned.section]!.end = Math.max(times[planned.section]!.end, at)),
    finished() {
      for (; told < sections.length; told++) {
        const own = plan.filter((p) => p.section === told);
        if (own.some((p) => !results.has(p))) return;
        if (own.length === 0) continue;
        const ended = own.map((p) => results.get(p)!);
        const time = times[told]!;
        reporters.forEach((r) => r.onSectionEnd?.(sections[told]!.name, ended, time.end - time.start));
      }
    },
  };
}

/** The checks --only or --skip left out of a requirement the run judges otherwise: skipped, so it is not passed on part of its checks. */
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

/** Runs the planned checks `workers` at once: each lane is one unit holding its lock, its checks in order
 *  and then those that only add to it together; lanes are taken first. */
async function sideBySide(plan: readonly Planned[], workers: number, runOne: (p: Planned) => Promise<void>, state: RunState) {
  const lanes = new Map<string, Planned[]>();
  for (const planned of plan) {
    const lane = planned.check.lane;
    if (lane !== undefined) lanes.set(lane, [...(lanes.get(lane) ?? []), planned]);
  }
  const units: Array<() => Promise<void>> = [...lanes.entries()].map(([lane, members]) => async () => {
    for (const planned of members) if (planned.check.addsOnly !== true) await laneLock(state, lane).run(() => runOne(planned));
    await laneLock(state, lane).run(() => Promise.all(members.filter((p) => p.check.addsOnly === true).map(runOne)));
  });
  for (const planned of plan) if (planned.check.lane === undefined) units.push(() => runOne(planned));
  let next = 0;
  const worker = async () => {
    while (next < units.length) await units[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(workers, units.length) }, worker));
}
