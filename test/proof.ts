// The conformance proof's machinery, shared by the three proof files (so vitest runs them on separate
// workers): runs in-process (the run and the verdict `run` uses, without the command around them:
// test/cli-run.test.ts covers that), each against a fresh sandbox that shares a scaled clock with the
// run, so a wait (the next second, a settlement) takes a fraction of its time. A variant's row is a
// whole run of every check, since a false alarm may come from any of them; a fault's row runs only
// the checks of the requirement the fault breaks (as `run --only REQ` does), since what the row proves
// is that this requirement's own checks catch the fault, and the other checks' passing on a sandbox
// without faults is the variants' proof.
import { afterAll, expect } from 'vitest';
import type { Report } from '../core/report.js';
import { allVariants, FAULT_NAMES, FAULTS, type FaultName, type SandboxVariant } from '../sandbox/index.js';
import { ConformanceRun } from '../suites/run.js';
import { runNumberAt } from '../suites/settings.js';

/** The fault areas part 1 of the proof takes; part 3 takes those of v1.2's rules; part 2 those of records (below). */
export const FIRST_AREAS: readonly string[] = ['auth', 'sign', 'env', 'errors'];
export const DEPTH_AREAS: readonly string[] = ['wire', 'edges', 'money', 'tenants', 'state'];
/** Part 2's areas: orders, duplicates, payouts, the profile's operations and webhooks. */
export const RECORD_AREAS: readonly string[] = ['order', 'duplicates', 'payout', 'operations', 'webhooks'];

export interface Row {
  name: string;
  expected: string;
  failed: string[];
  ok: boolean;
}

/** This file's rows (each test file loads its own copy of this module). */
const rows: Row[] = [];
const SEED = 20261121;
let runCounter = 0;

/**
 * The concurrencies the proof runs at: one request at a time (the checks in their listed order), and
 * 8 in flight (the default). Every variant is certified at both. Each fault is proven at one of them,
 * alternating along the fault list, so both see faults of every area: a run's requests and report do
 * not depend on the concurrency (suites/runner.test.ts proves it for a seed), and a whole run per
 * fault and concurrency doubled the proof's time once the v1.2 checks came.
 */
export const CONCURRENCIES = [1, 8] as const;

/** The faults of a list proven at this concurrency: every other one, by its place among all faults. */
export function faultsAt(faults: readonly FaultName[], concurrency: number): FaultName[] {
  const turn = CONCURRENCIES.indexOf(concurrency as (typeof CONCURRENCIES)[number]);
  return faults.filter((fault) => FAULT_NAMES.indexOf(fault) % CONCURRENCIES.length === turn);
}

/**
 * The proof's clock runs this many times faster than a real one, for the sandbox and the run alike:
 * a settlement (6 s) or the webhook retries (1, 2, 4 s) take a fraction of a second, and waits for
 * what happens elsewhere (a delivery) are measured as they would be, only sooner.
 */
export const CLOCK_FACTOR = 30;

/**
 * Faults judged by timing that jitter would hide at CLOCK_FACTOR: their rows run on a slower one.
 * HOOK-RETRY allows a quarter of a real second per gap, which is 7.5 s on the proof's clock; a
 * payout.success sent while Payout Status still says PROCESSING is caught only while the payout has
 * not settled, 6 s of the sandbox's time, which is 200 ms on the proof's clock: a loaded machine
 * asks later than that.
 */
const SLOWER_CLOCK: Partial<Record<FaultName, number>> = { 'hook-retry-countdown': 3, 'hook-contradicts-status': 3 };

/**
 * Random cases per property and random model sequences per model check. A variant is certified with
 * three (more random cases, more chances of a false alarm); a fault is proven with one: what catches it
 * must be the fixed edges and fixed sequences every run tries, not the luck of a random case.
 */
const RUNS = { variant: 3, fault: 1 } as const;

/**
 * One run against a fresh sandbox, judged as `run --strict --runs R --seed 20261121 --concurrency N
 * [--only P]` judges (R: RUNS): a whole run unless `only` names requirement id prefixes.
 */
export async function certify(
  options: { variant?: SandboxVariant; faults?: FaultName[]; only?: readonly string[] },
  concurrency: number,
): Promise<Report> {
  const { only, ...sandboxOptions } = options;
  const runs = options.faults !== undefined && options.faults.length > 0 ? RUNS.fault : RUNS.variant;
  const slower = options.faults?.map((fault) => SLOWER_CLOCK[fault]).find((factor) => factor !== undefined);
  const startedAt = new Date();
  const run = await ConformanceRun.open({
    target: {
      embedded: {
        // Settling takes 6 s of the sandbox's time: long enough that an event the status contradicts is caught in the act.
        sandbox: { settleSeconds: 6, ...sandboxOptions },
        clockFactor: slower ?? CLOCK_FACTOR,
        // The retries' bound is 300 s of the proof's clock (10 real seconds), not the default 60 (2 real
        // seconds): on a loaded machine every timer of a process that runs six whole runs at once fires
        // late, and the first three retries (1, 2 and 4 s apart) arrived 60 to 110 s apart on the proof's
        // clock. No fault breaks the bound itself; hook-no-retry and hook-retry-countdown break the rule.
        profile: { webhooks: { retryWithinSeconds: 300 } },
      },
    },
    seed: SEED,
    runs,
    runNumber: runNumberAt(startedAt.getTime()) + runCounter++,
    concurrency,
    ...(only !== undefined ? { only } : {}),
  });
  try {
    return run.report(await run.run(), { strict: true, startedAt, version: 'proof' });
  } finally {
    await run.close();
  }
}

/** Runs jobs a few at a time: each mostly waits on the loopback, so they overlap well in one process. */
export async function pool<T>(items: readonly T[], job: (item: T) => Promise<void>, width = 6): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await job(items[next++]!);
    }),
  );
}

export const failedIds = (report: Report, levels: readonly string[]) =>
  report.requirements.filter((q) => q.status === 'failed' && levels.includes(q.level)).map((q) => q.id);

/** Prints the rows of this file's proof when it ends. */
export function printRowsAfterAll(title: string): void {
  afterAll(() => {
    const width = Math.max(...rows.map((r) => r.name.length)) + 2;
    const lines = rows.map(
      (r) => `${r.ok ? '✓' : '✗'} ${r.name.padEnd(width)} expected ${r.expected.padEnd(34)} failed: ${r.failed.join(' ') || '-'}`,
    );
    process.stdout.write(`\n${title}: ${rows.filter((r) => r.ok).length}/${rows.length} rows as expected\n${lines.join('\n')}\n`);
  });
}

/**
 * The variants certified at this concurrency: those of allVariants() whose place has at most one of
 * its three bits set at 1, the others at 8. Each choice is a parity of those bits, and the majority
 * of three bits meets each value of every parity, so each value of every choice is certified at both
 * concurrencies (checked in provesVariantsClean).
 */
export function variantsAt(concurrency: number): SandboxVariant[] {
  const turn = CONCURRENCIES.indexOf(concurrency as (typeof CONCURRENCIES)[number]);
  const majority = (i: number) => ((i & 1) + ((i >> 1) & 1) + ((i >> 2) & 1) >= 2 ? 1 : 0);
  return allVariants().filter((_, i) => majority(i) === turn);
}

/** Every legitimate variant: no MUST or SHOULD failure and no kit error, even under --strict. */
export async function provesVariantsClean(concurrency: number): Promise<void> {
  const falseAlarms: string[] = [];
  const variants = variantsAt(concurrency);
  // Each value of every choice is certified at this concurrency too.
  for (const key of Object.keys(variants[0]!) as (keyof SandboxVariant)[]) {
    expect(new Set(variants.map((v) => v[key])), key).toEqual(new Set(allVariants().map((v) => v[key])));
  }
  await pool(variants, async (variant) => {
    const name = `variant create=${variant.createStatus} verify=${variant.verify} replay=${variant.replay} window=${variant.toleranceSeconds} debit=${variant.debitAt} method=${variant.otherMethod} longIds=${variant.longIds} c=${concurrency}`;
    const report = await certify({ variant }, concurrency);
    const failed = failedIds(report, ['MUST', 'SHOULD']);
    const ok = report.verdict === 'conformant' && failed.length === 0 && report.kitErrors === undefined && report.summary.warned === 0;
    rows.push({ name, expected: 'conformant, nothing failed', failed, ok });
    // Say why, so a false alarm that shows up once in a loaded CI run can be understood from its log.
    const why = report.requirements.filter((q) => failed.includes(q.id)).map((q) => `${q.id}: ${q.evidence[0]?.message ?? q.title}`);
    if (!ok) falseAlarms.push(`${name}: ${why.join('; ')} ${JSON.stringify(report.kitErrors ?? [])}`);
  });
  expect(falseAlarms).toEqual([]);
}

/**
 * Each fault of the list proven at this concurrency (faultsAt): a run of the checks of the requirement
 * the fault breaks (and of those whose ids it prefixes) is not conformant and names that requirement.
 * A fault caught only by another requirement's check, or only as a side effect of other checks'
 * requests, fails its row.
 */
export async function provesFaultsDetected(all: readonly FaultName[], concurrency: number): Promise<void> {
  const faults = faultsAt(all, concurrency);
  expect(faults.length).toBeGreaterThan(0);
  const undetected: string[] = [];
  const prove = async (fault: FaultName) => {
    const requirement = FAULTS[fault].requirement;
    const report = await certify({ faults: [fault], only: [requirement] }, concurrency);
    const failed = failedIds(report, ['MUST', 'SHOULD', 'MAY']);
    const ok = report.verdict === 'not-conformant' && failed.includes(requirement) && report.kitErrors === undefined;
    rows.push({ name: `fault ${fault} c=${concurrency}`, expected: `${requirement} failed`, failed, ok });
    if (!ok)
      undetected.push(
        `${fault} (${requirement}): ${report.verdict}, failed ${failed.join(', ') || 'nothing'} ${JSON.stringify(report.kitErrors ?? [])}`,
      );
  };
  // Faults judged by timing run after the others, on their slower clock, beside each other only.
  await pool(
    faults.filter((fault) => SLOWER_CLOCK[fault] === undefined),
    prove,
  );
  await pool(
    faults.filter((fault) => SLOWER_CLOCK[fault] !== undefined),
    prove,
  );
  expect(undetected).toEqual([]);
}
