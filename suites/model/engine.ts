// Runs the model against the target for one rule: first a fixed set of short sequences (each ordered
// pair of the rule's commands on one record, then a read: the edges by construction, whatever the
// seed), then --runs random sequences from the seed (fc.commands). A broken rule is shrunk by
// fast-check to the shortest sequence that breaks it, run once more (which confirms it and collects
// its exchanges cleanly), and reported as numbered steps with a line that replays exactly it.
import fc from 'fast-check';
import { CheckFailure, CheckSkipped, type CheckContext } from '../check.js';
import { ModelCommand, SANDBOX_ONLY, type Kind } from './commands.js';
import { emptyModel, SLOTS, type Model, type ModelRule } from './model.js';
import type { Decimal } from '../checks/requests.js';
import { decimalPlus, Misses, missWays, REPRODUCED, retryPauseMs, type MissWay } from '../checks/wallet.js';
import { readBalanceInto, sequencePlan, type SequencePlan } from './plans.js';
import { ModelBreach, NotJudged, Real, targetFacts, type MoneyMiss, type Step, type TargetFacts } from './target.js';

/** A sequence's longest random length: short sequences shrink fast and read well. */
export const MAX_COMMANDS = 8;

interface Outcome {
  steps: Step[];
  /** The commands as sent: a replay path is their codes. */
  codes: number[];
  breach?: ModelBreach;
  notJudged?: string;
}

/** Runs one sequence of commands on fresh records (fast-check's model runner: a command runs when its check holds). */
async function runSequence(
  ctx: CheckContext,
  rule: ModelRule,
  facts: TargetFacts,
  commands: Iterable<ModelCommand>,
  reached = new Set<string>(),
): Promise<Outcome> {
  const real = new Real(ctx, rule, facts);
  const ran: number[] = [];
  const tracked = [...commands].map((command) => ({
    check: (m: Readonly<Model>) => command.check(m),
    run: async (m: Model, r: Real) => {
      ran.push(command.code);
      await command.run(m, r);
      noteReached(m, reached);
    },
    toString: () => command.toString(),
  }));
  try {
    await fc.asyncModelRun(async () => {
      const model = emptyModel(facts.sandbox);
      if (rule === 'MONEY-CONSERVATION') await readBalanceInto(model, real);
      return { model, real };
    }, tracked);
    return { steps: real.steps, codes: ran };
  } catch (error) {
    if (error instanceof ModelBreach) return { steps: real.steps, codes: ran, breach: error };
    if (error instanceof NotJudged) return { steps: real.steps, codes: ran, notJudged: error.message };
    throw error;
  }
}

/** The states the records of a sequence have shown so far (`order:PAID`, `payout:REVERSED`). */
function noteReached(m: Readonly<Model>, reached: Set<string>): void {
  for (const order of m.orders) if (order !== undefined) reached.add(`order:${order.state}`);
  for (const payout of m.payouts) if (payout !== undefined) reached.add(`payout:${String(payout.last.status)}`);
}

const decode = (codes: readonly number[]) =>
  codes.map((code) => ModelCommand.decode(code)).filter((c): c is ModelCommand => c !== undefined);

/** The rule's model check: fixed sequences, then random ones; throws its verdict. */
export async function runModel(ctx: CheckContext, rule: ModelRule): Promise<void> {
  const plan = sequencePlan(rule);
  const facts = await targetFacts(ctx, plan.payouts);
  const usable = (kind: Kind) => facts.sandbox || !SANDBOX_ONLY.includes(kind);
  const fixed = plan.fixed.filter((sequence) => sequence.every((command) => usable(command.kind)));
  const reached = new Set<string>();
  const run = (commands: Iterable<ModelCommand>) => runSequence(ctx, rule, facts, commands, reached);

  if (ctx.replayPath !== undefined) return replay(ctx, rule, fixed, run);

  // 1. The fixed set: side by side on records of their own, except where the balance is compared
  // (every sequence's payouts move the one wallet: they go one after another).
  const money = rule === 'MONEY-CONSERVATION';
  const outcomes = money ? await inOrder(fixed, run) : await ctx.sweep(fixed, (sequence) => run(sequence));
  const judged = { count: 0, disturbed: 0, notJudged: [] as string[] };
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.notJudged !== undefined) judged.notJudged.push(outcome.notJudged);
    else if (outcome.breach === undefined) judged.count += 1;
    else {
      const shorter = await shortest(outcome, run);
      const path = shorter.codes.length < outcome.codes.length ? `1:${shorter.codes.join(':')}` : `0:${index}`;
      const confirmed = await confirm(
        ctx,
        rule,
        decode(shorter.codes),
        shorter,
        path,
        `fixed sequence ${index + 1} of ${fixed.length}${path.startsWith('1:') ? ', shortened' : ''}`,
      );
      if (confirmed) throw confirmed;
      judged.disturbed += 1;
    }
  }

  // 2. Random sequences from the seed, each on records of its own; fast-check shrinks a failure.
  const kinds = plan.random.filter(usable);
  const arbitraries = kinds.map((kind) => fc.integer({ min: 0, max: SLOTS - 1 }).map((slot) => new ModelCommand(kind, slot)));
  let lastFailed: Outcome | undefined;
  const details = await fc.check(
    fc.asyncProperty(fc.commands(arbitraries, { maxCommands: MAX_COMMANDS }), async (commands) => {
      const outcome = await run(commands as Iterable<ModelCommand>);
      if (outcome.notJudged !== undefined) judged.notJudged.push(outcome.notJudged);
      else if (outcome.breach === undefined) judged.count += 1;
      else {
        lastFailed = outcome;
        throw outcome.breach;
      }
    }),
    { seed: ctx.seed, numRuns: randomSequences(ctx.runs) },
  );
  if (details.failed) {
    if (!(details.errorInstance instanceof ModelBreach)) throw details.errorInstance;
    // The commands that ran in it (a command whose check did not hold was passed over): replayed as they are.
    const shrunk = decode(lastFailed!.codes);
    // fast-check's counterexample is the last sequence that failed: its outcome is the one kept.
    const confirmed = await confirm(
      ctx,
      rule,
      shrunk,
      lastFailed!,
      `1:${lastFailed!.codes.join(':')}`,
      `a random sequence, shrunk ${details.numShrinks} times`,
    );
    if (confirmed) throw confirmed;
    judged.disturbed += 1;
  }

  // P-MONEY-1: a balance move that the run's own payouts do not explain, and that re-runs did not
  // repeat the same way, is other activity on the wallet: the requirement is reported not judged, not
  // passed on the sequences that happened to stay clear of it.
  if (judged.disturbed > 0) {
    throw new CheckSkipped(
      `not judged: other activity on the wallet: ${judged.disturbed} sequence(s) saw the balance move by amounts the run's own payouts do not explain, and, run again with other amounts, did not miss the same way ${REPRODUCED} times (${rule}, P-MONEY-1)`,
    );
  }
  if (judged.count === 0)
    throw new CheckSkipped(`not judged: the model could not follow the target: ${judged.notJudged[0] ?? 'no sequence ran'} (${rule})`);
  judgeReach(ctx, rule, plan, reached);
}

/**
 * Off the reference sandbox only the target moves records to most final states: a rule is judged on
 * the states its sequences reached, the rest are named; a rule whose point is those states, none of
 * them reached, was not exercised and is not judged (a pass would claim what was never seen).
 */
function judgeReach(ctx: CheckContext, rule: ModelRule, plan: SequencePlan, reached: ReadonlySet<string>): void {
  if (plan.aims === undefined) return;
  const missing = plan.aims.states.filter((state) => !reached.has(state));
  if (missing.length === 0) return;
  const named = missing.map((state) => state.replace(':', ' ')).join(', ');
  const why =
    "the model moves records there only through the reference sandbox's checkout and settle control requests, and the target did not move them there itself";
  if (plan.aims.needed && missing.length === plan.aims.states.length)
    throw new CheckSkipped(`not judged: no sequence reached ${named}, the states ${rule} is about (${why})`);
  ctx.notice(
    `${rule}: judged on the states the run reached; never reached: ${named} (${why}), so what the rule says of them was not judged`,
  );
}

/**
 * A fixed sequence that breaks a rule, shortened as fast-check shrinks commands: each command after
 * the first (which makes the record) is dropped in turn, and kept out when the rest still breaks it.
 */
async function shortest(outcome: Outcome, run: (s: readonly ModelCommand[]) => Promise<Outcome>): Promise<Outcome> {
  let best = outcome;
  for (let i = best.codes.length - 2; i >= 1; i--) {
    const codes = best.codes.filter((_, j) => j !== i);
    const tried = await run(decode(codes));
    if (tried.breach?.rule === outcome.breach!.rule) best = tried;
  }
  return best;
}

async function inOrder(sequences: readonly ModelCommand[][], run: (s: ModelCommand[]) => Promise<Outcome>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const sequence of sequences) outcomes.push(await run(sequence));
  return outcomes;
}

/**
 * Runs a failing sequence once more: its exchanges are the failure's evidence. A rule that only the
 * balance shows (P-MONEY-1) is failed only when re-runs miss the same way (undefined otherwise:
 * the caller reports it not judged). The other rules judge the run's own records, which nothing else
 * touches: what was seen stands, reproduced or not.
 */
async function confirm(
  ctx: CheckContext,
  rule: ModelRule,
  sequence: readonly ModelCommand[],
  seen: Outcome,
  path: string,
  what: string,
): Promise<CheckFailure | undefined> {
  const facts = await targetFacts(ctx, sequencePlan(rule).payouts);
  // The same command, not the same step count: a money sequence reads as many earlier payouts as are
  // still settling when it runs, so its steps differ from run to run while its commands do not.
  const atSameCommand = (again: Outcome) => again.breach !== undefined && again.codes.length === seen.codes.length;
  if (rule !== 'MONEY-CONSERVATION') {
    const again = await runSequence(ctx, rule, facts, sequence);
    return atSameCommand(again) ? failure(ctx, again, path, what) : failure(ctx, seen, path, `${what}; a re-run did not show it again`);
  }
  // The balance is shared with whatever else uses the wallet (another run at once): a miss is the
  // target's only when runs of the sequence, each with amounts of its own, miss the same way
  // REPRODUCED times, as wallet.ts judges tries (the same multiple of the sequence's amounts, the same
  // amount off, or the same change). Another run's payouts match that only by chance, the less so
  // after a pause that puts two runs in step out of it. Up to MONEY_RUNS runs in all.
  const misses = new Misses<Outcome>();
  if (seen.breach?.miss !== undefined) misses.add(seen, moneyWays(seen.breach.miss));
  for (let tries = 1; tries < MONEY_RUNS; tries++) {
    await ctx.clock.sleep(retryPauseMs(ctx));
    const again = await runSequence(ctx, rule, facts, sequence);
    const miss = again.breach?.miss;
    if (miss === undefined || !atSameCommand(again)) continue;
    if (misses.add(again, moneyWays(miss)) !== undefined)
      return failure(ctx, again, path, `${what}; run ${REPRODUCED} times, each with amounts of its own, it missed the same way`);
  }
  return undefined;
}

/**
 * The ways a run of a money sequence missed, in wallet.ts's sense (missWays), with the discrepancy
 * (expected balance less the one seen) as the change: the same multiple of one of the sequence's own
 * amounts (the same command's in every run: a duplicate debited, a reversal never refunded) or of
 * their sum, or the same amount off. Runs with as many payouts only are compared. (The model's own
 * amounts span whole units, so a debit rounded is not among the ways it sees: wallet.ts's checks are.)
 */
function moneyWays(m: MoneyMiss): MissWay[] {
  const candidates = [...m.amounts, m.amounts.reduce(decimalPlus, NONE)];
  return candidates.flatMap((amount, i) =>
    missWays({ amount, expected: NONE, before: { balance: m.expected }, after: { balance: m.actual } }, `${m.amounts.length}:${i}:`),
  );
}

/**
 * Runs of a money sequence, the first included, before a miss not reproduced is called other activity:
 * fewer than wallet.ts's tries, since a run is a whole sequence and its faults (a duplicate debited, a
 * reversal never refunded) miss by the same multiple every time.
 */
const MONEY_RUNS = 4;

const NONE: Decimal = { units: 0n, scale: 0 };

/**
 * Random sequences per model check for `--runs N`: a quarter of N, at least one. A sequence of up to
 * MAX_COMMANDS commands sends about as many requests as four cases of a property, so the model part
 * grows with --runs as the properties do, and `--runs 500` stays a run, not an afternoon.
 */
export function randomSequences(runs: number): number {
  return Math.max(1, Math.ceil(runs / 4));
}

/** The verdict: the breach, the numbered steps, and the line that replays exactly this sequence. */
function failure(ctx: CheckContext, outcome: Outcome, path: string, what: string): CheckFailure {
  const breach = outcome.breach!;
  const steps = outcome.steps.map((step, i) => `${i + 1}. ${step.text}${i === outcome.steps.length - 1 ? ` (${breach.message})` : ''}`);
  const reproduce = `svc-conformance run --seed ${ctx.seed} --only ${ctx.checkId} --replay-path ${path}`;
  return new CheckFailure(`${breach.message}, after ${outcome.steps.length} step(s) (${what}, path ${path})`, {
    expected: 'every answer as the model allows',
    actual: steps[steps.length - 1] ?? breach.message,
    ...(breach.exchange !== undefined ? { exchange: breach.exchange } : {}),
    // The evidence is the sequence's own exchanges, step by step, not whatever the check sent last.
    exchanges: outcome.steps.flatMap((step) => (step.exchange !== undefined ? [step.exchange] : [])),
    steps,
    reproduce,
    replayPath: path,
  });
}

/** `--replay-path 0:I` reruns fixed sequence I; `1:C1:C2:…` the random sequence of those command codes. */
async function replay(
  ctx: CheckContext,
  rule: ModelRule,
  fixed: readonly ModelCommand[][],
  run: (s: readonly ModelCommand[]) => Promise<Outcome>,
): Promise<void> {
  const [kind, ...rest] = ctx.replayPath!.split(':').map(Number);
  const sequence = kind === 0 && rest.length === 1 ? fixed[rest[0]!] : kind === 1 ? decode(rest) : undefined;
  if (sequence === undefined || sequence.length === 0) {
    throw new CheckSkipped(
      `not judged: --replay-path ${ctx.replayPath} names no sequence of ${ctx.checkId} (0:I for fixed sequence I, 1:C1:C2:… for a random one)`,
    );
  }
  const outcome = await run(sequence);
  if (outcome.notJudged !== undefined)
    throw new CheckSkipped(`not judged: the model could not follow the target: ${outcome.notJudged} (${rule})`);
  if (outcome.breach !== undefined) throw failure(ctx, outcome, ctx.replayPath!, 'the sequence at that path, replayed');
}
