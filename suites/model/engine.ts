// Runs the model for one rule: fixed sequences (the edges, whatever the seed), then --runs random ones.
// A broken rule is shrunk, run once more to confirm it, and reported as steps with a replay line.
import fc from 'fast-check';
import { CheckFailure, CheckSkipped, type CheckContext } from '../check.js';
import { DRIVEN, judgeBalance, ModelCommand, type Kind } from './commands.js';
import { driverFor } from '../drivers.js';
import { emptyModel, SLOTS, type Model, type ModelRule } from './model.js';
import { otherActivityAfterMiss, otherActivitySeen } from '../wallet.js';
import { readBalanceInto, sequencePlan, type SequencePlan, type Watch } from './plans.js';
import { ModelBreach, NotJudged, Real, targetFacts, type Step, type TargetFacts } from './target.js';

/** Money sequences run again after misses that no quiet look had excused yet. */
const EXTRA_SEQUENCES = 3;

/** A sequence's longest random length: short sequences shrink fast and read well. */
const MAX_COMMANDS = 8;

type Sequences = fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Real>>>;
type Run = (commands: Iterable<ModelCommand>, reads?: boolean) => Promise<Outcome>;

interface Outcome {
  steps: Step[];
  /** The commands as sent: a replay path is their codes. */
  codes: number[];
  breach?: ModelBreach;
  notJudged?: string;
  model?: Model;
}

/** Runs one sequence of commands on fresh records (fast-check's model runner: a command runs when its check holds). */
async function runSequence(
  ctx: CheckContext,
  rule: ModelRule,
  facts: TargetFacts,
  commands: Iterable<ModelCommand>,
  reached: Set<string>,
  watch: Watch,
  reads: boolean = rule === 'MONEY-CONSERVATION',
): Promise<Outcome> {
  const real = new Real(ctx, rule, facts);
  const ran: number[] = [];
  const model = emptyModel(facts.drivers);
  // fc.commands hands each command wrapped (its `cmd`): the code of a replay path is the command's own.
  const tracked = [...commands].map((command) => ({
    check: (m: Readonly<Model>) => command.check(m),
    run: async (m: Model, r: Real) => {
      ran.push(codeOf(command));
      await command.run(m, r);
      noteReached(m, reached);
    },
    toString: () => command.toString(),
  }));
  try {
    await fc.asyncModelRun(async () => {
      // Without a start balance (sequences side by side) a sequence's balance commands do not run.
      if (reads) await readBalanceInto(model, real, watch);
      return { model, real };
    }, tracked);
    return { steps: real.steps, codes: ran, model };
  } catch (error) {
    return caught(error, real, ran);
  }
}

/** A sequence (or stretch of them) whose balance the model could not explain, with its replay path. */
type Miss = { outcome: Outcome; path: string; what: string };

function caught(error: unknown, real: Real, codes: number[]): Outcome {
  if (error instanceof ModelBreach) return { steps: real.steps, codes, breach: error };
  if (error instanceof NotJudged) return { steps: real.steps, codes, notJudged: error.message };
  throw error;
}

/** P-MONEY-1 holds over any stretch: the money sequences side by side, between one quiet look and one balance
 *  set against all their payouts (read again if one settled around it). A clean pass counts; else they run in turn. */
async function sideBySide(ctx: CheckContext, facts: TargetFacts, fixed: ModelCommand[][], random: Sequences, run: Run, watch: Watch) {
  const sequences = [...fixed, ...(fc.sample(random, { seed: ctx.seed, numRuns: randomSequences(ctx.runs) }) as Iterable<ModelCommand>[])];
  const real = new Real(ctx, 'MONEY-CONSERVATION', facts);
  const model = emptyModel(facts.drivers);
  try {
    await readBalanceInto(model, real, watch);
    const outcomes = await ctx.sweep(sequences, (sequence) => run(sequence, false));
    if (outcomes.some((o) => o.breach !== undefined || o.notJudged !== undefined)) return undefined;
    model.payouts = outcomes.flatMap((o) => o.model!.payouts);
    for (let n = 0; n < 3; n++) if (await judgeBalance(model, real)) return 'passed';
  } catch (error) {
    const outcome = caught(error, real, []);
    if (outcome.breach === undefined) return undefined;
    const miss = { outcome, path: '', what: `${sequences.length} sequences side by side` };
    // A look already saw the wallet move by itself: not judged, whatever the sequences in turn would show.
    if (otherActivitySeen(ctx, { walletId: facts.walletId }) !== undefined) throw await moneyVerdict(ctx, facts, [miss]);
    return miss;
  }
  return undefined;
}

/** The states the records of a sequence have shown so far (`order:PAID`, `payout:REVERSED`). */
function noteReached(m: Readonly<Model>, reached: Set<string>): void {
  for (const order of m.orders) if (order !== undefined) reached.add(`order:${order.state}`);
  for (const payout of m.payouts) if (payout !== undefined) reached.add(`payout:${String(payout.last.status)}`);
}

export const codeOf = (command: ModelCommand): number => command.code ?? (command as unknown as { cmd: ModelCommand }).cmd.code;

const decode = (codes: readonly number[]) =>
  codes.map((code) => ModelCommand.decode(code)).filter((c): c is ModelCommand => c !== undefined);

/** The rule's model check: fixed sequences, then random ones; throws its verdict. */
export async function runModel(ctx: CheckContext, rule: ModelRule): Promise<void> {
  const plan = sequencePlan(rule);
  const facts = await targetFacts(ctx, plan.payouts);
  const usable = (kind: Kind) => DRIVEN[kind] === undefined || facts.drivers?.has(DRIVEN[kind]) === true;
  const fixed = plan.fixed.filter((sequence) => sequence.every((command) => usable(command.kind)));
  const reached = new Set<string>();
  const watch: Watch = { afterMiss: false };
  const run: Run = (commands, reads) => runSequence(ctx, rule, facts, commands, reached, watch, reads);
  const money = rule === 'MONEY-CONSERVATION';
  /** Money misses (P-MONEY-1), each kept with its path: judged once every sequence has run, never erased by a later one. */
  const misses: Miss[] = [];
  // From the first miss on, the sequences start with longer looks: seeing other activity is now the point.
  const missed = (miss: Miss) => {
    misses.push(miss);
    watch.afterMiss = true;
  };

  if (ctx.replayPath !== undefined) return replay(ctx, rule, fixed, run);
  const kinds = plan.random.filter(usable);
  const arbitraries = kinds.map((kind) => fc.integer({ min: 0, max: SLOTS - 1 }).map((slot) => new ModelCommand(kind, slot)));
  const sequences: Sequences = fc.commands(arbitraries, { maxCommands: MAX_COMMANDS });
  const together = money ? await sideBySide(ctx, facts, fixed, sequences, run, watch) : undefined;
  if (together === 'passed') return judgeReach(ctx, rule, plan, reached, facts);
  if (together !== undefined) missed(together);

  // 1. The fixed set: side by side on records of their own, except where the balance is compared
  // (every sequence's payouts move the one wallet: they go one after another).
  const outcomes = money ? await inOrder(fixed, run) : await ctx.sweep(fixed, (sequence) => run(sequence));
  const judged = { count: 0, notJudged: [] as string[] };
  // Counts an outcome, keeping a money miss for later; true for any other breach, which is the verdict.
  const breaks = (outcome: Outcome, path: string, what: string): outcome is Outcome & { breach: ModelBreach } => {
    if (outcome.notJudged !== undefined) judged.notJudged.push(outcome.notJudged);
    else if (outcome.breach === undefined) judged.count += 1;
    else if (money) missed({ outcome, path, what });
    else return true;
    return false;
  };
  for (const [index, outcome] of outcomes.entries()) {
    if (!breaks(outcome, `0:${index}`, `fixed sequence ${index + 1} of ${fixed.length}`)) continue;
    const shorter = await shortest(outcome, run);
    const path = shorter.codes.length < outcome.codes.length ? `1:${shorter.codes.join(':')}` : `0:${index}`;
    const what = `fixed sequence ${index + 1} of ${fixed.length}${path.startsWith('1:') ? ', shortened' : ''}`;
    throw await confirm(ctx, rule, decode(shorter.codes), shorter, path, what, watch);
  }

  // 2. Random sequences from the seed, each on records of its own; fast-check shrinks a failure.
  let lastFailed: Outcome | undefined;
  const details = await fc.check(
    fc.asyncProperty(sequences, async (commands) => {
      const outcome = await run(commands as Iterable<ModelCommand>);
      if (breaks(outcome, `1:${outcome.codes.join(':')}`, 'a random sequence')) {
        lastFailed = outcome;
        throw outcome.breach;
      }
    }),
    { seed: ctx.seed, numRuns: randomSequences(ctx.runs) },
  );
  if (details.failed) {
    if (!(details.errorInstance instanceof ModelBreach)) throw details.errorInstance;
    // fast-check's counterexample is the last sequence that failed: its outcome is the one kept, and
    // the commands that ran in it (a command whose check did not hold was passed over) replay it.
    const path = `1:${lastFailed!.codes.join(':')}`;
    const what = `a random sequence, shrunk ${details.numShrinks} times`;
    throw await confirm(ctx, rule, decode(lastFailed!.codes), lastFailed!, path, what, watch);
  }
  if (misses.length > 0) {
    // No look excused them yet: more sequences, each starting with a longer quiet look, to see whether
    // something else moves the wallet (another run at once pays during them); their misses count too.
    const wallet = { walletId: facts.walletId };
    for (let extra = 0; extra < EXTRA_SEQUENCES && otherActivitySeen(ctx, wallet) === undefined && fixed.length > 0; extra++) {
      const outcome = await run(fixed[extra % fixed.length]!);
      if (outcome.breach !== undefined) missed({ outcome, path: `0:${extra % fixed.length}`, what: 'a fixed sequence run again' });
    }
    throw await moneyVerdict(ctx, facts, misses);
  }
  if (judged.count === 0)
    throw new CheckSkipped(`not judged: the model could not follow the target: ${judged.notJudged[0] ?? 'no sequence ran'} (${rule})`);
  judgeReach(ctx, rule, plan, reached, facts);
}

/** P-MONEY-1: a balance the run's payouts do not explain fails the target, unless a quiet look saw the
 *  wallet move by itself: then the rule is not judged, and not passed either. */
async function moneyVerdict(ctx: CheckContext, facts: TargetFacts, misses: readonly Miss[]): Promise<CheckFailure | CheckSkipped> {
  const seen = await otherActivityAfterMiss(ctx, 'after sequences whose balance missed', { walletId: facts.walletId });
  // A miss is a stretch (P-MONEY-1's word): one sequence, or all of them side by side.
  const count = `${misses.length} stretch${misses.length === 1 ? '' : 'es'} of sequences`;
  if (seen !== undefined)
    return new CheckSkipped(
      `not judged: other activity on the wallet: ${seen}; ${count} saw the balance move by amounts the run's own payouts do not explain (MONEY-CONSERVATION, P-MONEY-1)`,
    );
  const { outcome, path, what } = misses.find((miss) => miss.path !== '') ?? misses[0]!;
  return failure(ctx, outcome, path, `${what}; ${count} missed, and no quiet look at the wallet saw anything else move it`);
}

/** Without a driver only the target moves records to most final states: a rule whose point is states
 *  none of its sequences reached is not judged (a pass would claim what was never seen). */
function judgeReach(ctx: CheckContext, rule: ModelRule, plan: SequencePlan, reached: ReadonlySet<string>, facts: TargetFacts): void {
  if (plan.aims === undefined) return;
  const missing = plan.aims.states.filter((state) => !reached.has(state));
  if (missing.length === 0) return;
  const named = missing.map((state) => state.replace(':', ' ')).join(', ');
  const absent = [...new Set(missing.map(driverFor))].filter((name) => name !== undefined && facts.drivers?.has(name) !== true);
  const tried = missing.filter((state) => facts.drivers?.has(driverFor(state)!) === true).map((state) => state.replace(':', ' '));
  const why = [
    absent.length > 0 &&
      `the target did not move records there itself, and the config has no ${absent.map((name) => `drivers.${name}`).join(' or ')} to do it`,
    tried.length > 0 && `the run's drivers did not move records to ${tried.join(', ')} (see the notes and the sequences' steps)`,
  ]
    .filter(Boolean)
    .join('; ');
  if (plan.aims.needed && missing.length === plan.aims.states.length)
    throw new CheckSkipped(`not judged: no sequence reached ${named}, the states ${rule} is about (${why})`);
  ctx.notice(
    `${rule}: judged on the states the run reached; never reached: ${named} (${why}), so what the rule says of them was not judged`,
  );
}

/** Shortens a failing fixed sequence as fast-check shrinks: each command after the first (which makes
 *  the record) is dropped in turn, and kept out when the rest still breaks the rule. */
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

/** Runs a failing sequence once more: its exchanges are the evidence when it shows the breach again; what was seen stands either way. */
async function confirm(
  ctx: CheckContext,
  rule: ModelRule,
  sequence: readonly ModelCommand[],
  seen: Outcome,
  path: string,
  what: string,
  watch: Watch,
): Promise<CheckFailure> {
  const facts = await targetFacts(ctx, sequencePlan(rule).payouts);
  const again = await runSequence(ctx, rule, facts, sequence, new Set(), watch);
  // The same command, not the same step count: a sequence's reads of earlier payouts vary from run to run.
  const atSameCommand = again.breach !== undefined && again.codes.length === seen.codes.length;
  return atSameCommand ? failure(ctx, again, path, what) : failure(ctx, seen, path, `${what}; a re-run did not show it again`);
}

/** A quarter of --runs, at least one: a sequence sends about as many requests as four property cases, so
 *  `--runs 500` stays a run, not an afternoon. */
export const randomSequences = (runs: number): number => Math.max(1, Math.ceil(runs / 4));

/** The verdict: the breach, the numbered steps, and the line that replays exactly this sequence. */
function failure(ctx: CheckContext, outcome: Outcome, path: string, what: string): CheckFailure {
  const breach = outcome.breach!;
  const steps = outcome.steps.map((step, i) => `${i + 1}. ${step.text}${i === outcome.steps.length - 1 ? ` (${breach.message})` : ''}`);
  // Sequences side by side have no path: the check run again replays them.
  const replayed = path === '' ? '' : ` --replay-path ${path}`;
  const reproduce = `svc-conformance run --seed ${ctx.seed} --only ${ctx.checkId}${replayed}`;
  return new CheckFailure(`${breach.message}, after ${outcome.steps.length} step(s) (${what}${replayed && `, path ${path}`})`, {
    expected: 'every answer as the model allows',
    actual: steps[steps.length - 1] ?? breach.message,
    ...(breach.exchange !== undefined ? { exchange: breach.exchange } : {}),
    // The evidence is the sequence's own exchanges, step by step, not whatever the check sent last.
    exchanges: outcome.steps.flatMap((step) => (step.exchange !== undefined ? [step.exchange] : [])),
    steps,
    reproduce,
    ...(path === '' ? {} : { replayPath: path }),
  });
}

/** `--replay-path 0:I` reruns fixed sequence I; `1:C1:C2:…` the random sequence of those command codes. */
async function replay(ctx: CheckContext, rule: ModelRule, fixed: readonly ModelCommand[][], run: Run): Promise<void> {
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
