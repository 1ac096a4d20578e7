// Runs the model against the target for one rule: first a fixed set of short sequences (each ordered
// pair of the rule's commands on one record, then a read: the edges by construction, whatever the
// seed), then --runs random sequences from the seed (fc.commands). A broken rule is shrunk by
// fast-check to the shortest sequence that breaks it, run once more (which confirms it and collects
// its exchanges cleanly), and reported as numbered steps with a line that replays exactly it.
import fc from 'fast-check';
import { CheckFailure, CheckSkipped, type CheckContext } from '../check.js';
import { ModelCommand, SANDBOX_ONLY, type Kind } from './commands.js';
import { emptyModel, SLOTS, type Model, type ModelRule } from './model.js';
import { readBalanceInto, sequencePlan } from './plans.js';
import { ModelBreach, NotJudged, Real, targetFacts, type Step, type TargetFacts } from './target.js';

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
async function runSequence(ctx: CheckContext, rule: ModelRule, facts: TargetFacts, commands: Iterable<ModelCommand>): Promise<Outcome> {
  const real = new Real(ctx, rule, facts);
  const ran: number[] = [];
  const tracked = [...commands].map((command) => ({
    check: (m: Readonly<Model>) => command.check(m),
    run: async (m: Model, r: Real) => {
      ran.push(command.code);
      await command.run(m, r);
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

const decode = (codes: readonly number[]) => codes.map((code) => ModelCommand.decode(code)).filter((c): c is ModelCommand => c !== undefined);

/** The rule's model check: fixed sequences, then random ones; throws its verdict. */
export async function runModel(ctx: CheckContext, rule: ModelRule): Promise<void> {
  const plan = sequencePlan(rule);
  const facts = await targetFacts(ctx, plan.payouts);
  const usable = (kind: Kind) => facts.sandbox || !SANDBOX_ONLY.includes(kind);
  const fixed = plan.fixed.filter((sequence) => sequence.every((command) => usable(command.kind)));
  const run = (commands: Iterable<ModelCommand>) => runSequence(ctx, rule, facts, commands);

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
      const confirmed = await confirm(ctx, rule, decode(shorter.codes), shorter, path, `fixed sequence ${index + 1} of ${fixed.length}${path.startsWith('1:') ? ', shortened' : ''}`);
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
    { seed: ctx.seed, numRuns: ctx.runs },
  );
  if (details.failed) {
    if (!(details.errorInstance instanceof ModelBreach)) throw details.errorInstance;
    // The commands that ran in it (a command whose check did not hold was passed over): replayed as they are.
    const shrunk = decode(lastFailed!.codes);
    // fast-check's counterexample is the last sequence that failed: its outcome is the one kept.
    const confirmed = await confirm(ctx, rule, shrunk, lastFailed!, `1:${lastFailed!.codes.join(':')}`, `a random sequence, shrunk ${details.numShrinks} times`);
    if (confirmed) throw confirmed;
    judged.disturbed += 1;
  }

  if (judged.disturbed > 0) ctx.notice(`${rule}: ${judged.disturbed} sequence(s) saw the balance move in a way that did not reproduce on a re-run: other activity on the wallet, not judged (P-MONEY-1)`);
  if (judged.count === 0) {
    const why = judged.disturbed > 0 ? 'other activity on the wallet: every balance move that the run\'s own payouts did not explain went away on a re-run' : `the model could not follow the target: ${judged.notJudged[0] ?? 'no sequence ran'}`;
    throw new CheckSkipped(`not judged: ${why} (${rule})`);
  }
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
 * balance shows (P-MONEY-1) is failed only when the re-run misses at the same step again: another
 * run's payouts on the wallet would not do that twice. The other rules judge the run's own records,
 * which nothing else touches: what was seen stands, reproduced or not.
 */
async function confirm(ctx: CheckContext, rule: ModelRule, sequence: readonly ModelCommand[], seen: Outcome, path: string, what: string): Promise<CheckFailure | undefined> {
  const again = await runSequence(ctx, rule, await targetFacts(ctx, sequencePlan(rule).payouts), sequence);
  // The same command, not the same step count: a money sequence reads as many earlier payouts as are
  // still settling when it runs, so its steps differ from run to run while its commands do not.
  const same = again.breach !== undefined && again.codes.length === seen.codes.length;
  if (rule === 'MONEY-CONSERVATION') return same ? failure(ctx, again, path, what) : undefined;
  return same ? failure(ctx, again, path, what) : failure(ctx, seen, path, `${what}; a re-run did not show it again`);
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
    steps,
    reproduce,
    replayPath: path,
  });
}

/** `--replay-path 0:I` reruns fixed sequence I; `1:C1:C2:…` the random sequence of those command codes. */
async function replay(ctx: CheckContext, rule: ModelRule, fixed: readonly ModelCommand[][], run: (s: readonly ModelCommand[]) => Promise<Outcome>): Promise<void> {
  const [kind, ...rest] = ctx.replayPath!.split(':').map(Number);
  const sequence = kind === 0 && rest.length === 1 ? fixed[rest[0]!] : kind === 1 ? decode(rest) : undefined;
  if (sequence === undefined || sequence.length === 0) {
    throw new CheckSkipped(`not judged: --replay-path ${ctx.replayPath} names no sequence of ${ctx.checkId} (0:I for fixed sequence I, 1:C1:C2:… for a random one)`);
  }
  const outcome = await run(sequence);
  if (outcome.notJudged !== undefined) throw new CheckSkipped(`not judged: the model could not follow the target: ${outcome.notJudged} (${rule})`);
  if (outcome.breach !== undefined) throw failure(ctx, outcome, ctx.replayPath!, 'the sequence at that path, replayed');
}
