// The conformance proof's machinery, shared by the three proof files: runs as `run` does, in-process.
// A variant's row is a whole run (a false alarm may come from any check); a fault's, its requirement's.
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
 * One request at a time and 8 in flight. Each fault is proven at one, alternating along the fault
 * list: a run's requests do not depend on the concurrency (test/run-concurrency.test.ts proves it).
 */
export const CONCURRENCIES = [1, 8] as const;

/** The faults of a list proven at this concurrency: every other one, by its place among all faults. */
export function faultsAt(faults: readonly FaultName[], concurrency: number): FaultName[] {
  const turn = CONCURRENCIES.indexOf(concurrency as (typeof CONCURRENCIES)[number]);
  return faults.filter((fault) => FAULT_NAMES.indexOf(fault) % CONCURRENCIES.length === turn);
}

/** How much faster than real time the sandbox and the run share a clock: a settlement or a retry takes a fraction of a second. */
export const CLOCK_FACTOR = 30;

/**
 * Faults judged by timing that jitter would hide at CLOCK_FACTOR: at 30, a settlement's 6 s is 200 ms,
 * and a loaded machine asks later than that. Their rows run on a slower clock.
 */
const SLOWER_CLOCK: Partial<Record<FaultName, number>> = { 'hook-retry-countdown': 3, 'hook-contradicts-status': 3 };

/**
 * Faults shown by what never comes (a retry, an event): the observation waits out the whole retry
 * bound, and a shorter one only makes the absence surer. 60 s of the proof's clock is 2 real s, not 10.
 */
const ABSENCE: readonly FaultName[] = ['hook-no-retry', 'hook-silent-failures'];

/**
 * Random cases per property (and sequences per model check): three for a variant, more chances of a
 * false alarm; one for a fault, which the fixed edges and sequences must catch, not luck.
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
        // 300 s of the proof's clock (10 real s): six runs at once fire timers late, and retries came 110 s
        // apart. No fault breaks the bound itself; hook-no-retry and hook-retry-countdown break the rule.
        profile: { webhooks: { retryWithinSeconds: options.faults?.some((f) => ABSENCE.includes(f)) ? 60 : 300 } },
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
 * The variants certified at this concurrency: by the majority of their place's three low bits, which
 * meets each value of every choice at both concurrencies (checked in provesVariantsClean).
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
 * Each fault proven at this concurrency: a run of its requirement's checks alone is not conformant and
 * names that requirement; a fault caught only by another requirement's check fails its row.
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
