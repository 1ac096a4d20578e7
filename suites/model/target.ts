// The model's target side: its requests (each through ctx.send), the steps a failure reports, and what
// is learnt once per run (reference sandbox or not, the wallet's currency).
import { createHash } from 'node:crypto';
import { minorUnitOf } from '../../schemas/amounts.js';
import type { Currency } from '../../schemas/types.js';
import type { CheckContext } from '../check.js';
import type { Exchange } from '../http.js';
import { OPERATIONS, type OperationName } from '../../core/operations.js';
import { driversOf, type Driven, type DriverName, type DriverRecord, type Drivers } from '../drivers.js';
import { decimalText, payoutRequest, payoutStatusBody, type Decimal, type Json } from '../requests.js';
import { SANDBOX_OUTCOME_ENDINGS, walletCurrency } from '../wallet.js';
import type { ModelRule } from './model.js';

/** What the model knows of the target for the whole run. */
export interface TargetFacts {
  drivers: Drivers | undefined;
  walletId: string;
  currency: Currency;
}

/** One numbered step of a sequence: what was sent and what came back, as the report shows it. */
export interface Step {
  text: string;
  exchange?: Exchange;
}

/** A rule broken at a step: the model's verdict, carried out of fast-check's run as an exception. */
export class ModelBreach extends Error {
  override readonly name = 'ModelBreach';
  readonly code = 'SVC_MODEL_BREACH';
  constructor(
    readonly rule: ModelRule,
    message: string,
    readonly exchange?: Exchange,
  ) {
    super(message);
  }
}

/** A sequence the model cannot follow (an answer it has no rule for): never the target's failure. */
export class NotJudged extends Error {
  override readonly name = 'NotJudged';
  readonly code = 'SVC_MODEL_NOT_JUDGED';
}

/** One sequence's connection to the target: its ids per slot (drawn on first use, so a replayed
 *  sequence uses this run's own ids), the steps it took, and the rule its check asserts. */
export class Real {
  readonly steps: Step[] = [];
  /** The context with ids of this sequence's own, drawn once when it starts: sequences run side by side,
   *  and drawing from the run's ids as they go would make ids depend on concurrency. */
  readonly ctx: CheckContext;
  /** This sequence's part of every id it sends (it carries the run's tag). */
  private readonly base: string;

  constructor(
    ctx: CheckContext,
    readonly rule: ModelRule,
    readonly facts: TargetFacts,
  ) {
    const base = (this.base = ctx.ids.nonce());
    let n = 0;
    const next = (hint: string) => `${hint}-${base}-${++n}`;
    this.ctx = {
      ...ctx,
      ids: {
        orderId: (hint = 'ORD') => next(hint),
        payoutOrderId: (hint = 'PO') => next(hint),
        integerOrderId: () => ctx.ids.integerOrderId(),
        nonce: () => next('N'),
      },
    };
  }

  /** A slot's id names its slot: order#2 is MDL-…-O2, whenever the sequence first uses it. */
  orderId(slot: number): string {
    return `MDL-${this.base}-O${slot + 1}`;
  }

  payoutOrderId(slot: number): string {
    return `MDLPO-${this.base}-P${slot + 1}`;
  }

  /** Throws the breach when it is this check's rule; the other rules are other checks' to judge. */
  judge(rule: ModelRule, holds: boolean, message: () => string, exchange?: Exchange): void {
    if (!holds && rule === this.rule) throw new ModelBreach(rule, `${message()} (${rule})`, exchange);
  }

  /** A record the sequence made (by the `madeBy` operation) must not read back 404 (P-STATE-3). */
  judgeFound(exchange: Exchange, read: string, madeBy: string): void {
    if (exchange.response?.status === 404)
      this.judge('STATE-READS-AGREE', false, () => `${read}, which ${madeBy} made, answered 404 (P-STATE-3)`, exchange);
  }

  /** Runs `reads` side by side (at most --concurrency), their steps kept in the order given. */
  async together(reads: Array<(view: Real) => Promise<unknown>>): Promise<void> {
    const views = reads.map(() => Object.assign(Object.create(this) as Real, { steps: [] }));
    await this.ctx.sweep(reads, (read, i) => read(views[i]!)).finally(() => views.forEach((view) => this.steps.push(...view.steps)));
  }

  step(text: string, exchange?: Exchange): void {
    this.steps.push({ text, ...(exchange !== undefined ? { exchange } : {}) });
  }

  send(label: string, key: OperationName, payload: Json): Promise<Exchange> {
    if (key === 'createOrder' || key === 'payoutStatus') return this.ctx.send({ label, path: OPERATIONS[key].path, payload });
    const { method, path } = this.ctx.operation(key);
    return this.ctx.send({ label, method, path, payload });
  }

  /** Moves a record by one of the run's drivers (the engine runs a driver's commands only when it has one). */
  drive(name: DriverName, record: DriverRecord, label: string): Promise<Driven> {
    return this.facts.drivers!.drive(this.ctx, name, record, label);
  }

  /** A user's driver, then the caller reads the record, judged as any read: what the driver did, or the
   *  target did meanwhile (it may have settled the payout itself, and the driver refused), the read shows. */
  async driveThenRead(name: DriverName, record: DriverRecord, step: string): Promise<void> {
    const { done, said } = await this.drive(name, record, `drivers.${name}`);
    this.step(`${step} → ${said}`);
    if (!done)
      this.ctx.notice(`drivers.${name} did not make a change it was asked for (${said}); the model went on from the record as read`);
  }

  payoutBody(slot: number, amount: Decimal): Json {
    return payoutRequest(this.ctx, decimalText(amount), this.facts.currency, {
      svc_wallet_id: this.facts.walletId,
      payout_order_id: this.payoutOrderId(slot),
    });
  }

  /** Payout Status of any payout of the run's on the wallet (a slot's, or an earlier sequence's). */
  payoutStatusBody(payoutOrderId: string): Json {
    return payoutStatusBody(this.ctx, payoutOrderId, this.facts.walletId);
  }
}

/** The status and, in a few words, the record of an answer: "201 UN_PAID", "409", "no answer". */
export function briefly(exchange: Exchange, state?: unknown): string {
  if (exchange.response === undefined) return `no answer (${exchange.error?.message ?? 'transport error'})`;
  return `${exchange.response.status}${typeof state === 'string' ? ` ${state}` : ''}`;
}

/** An amount of this run's own, so another run's debit cannot pass for it. On the reference sandbox the
 *  ending decides the outcome (13 rejected, 42 PENDING): `ending` is one of those or 'processed'. */
export function ownPayoutAmount(ctx: CheckContext, currency: Currency, ending: number | 'processed'): Decimal {
  const digest = createHash('sha256').update(ctx.ids.nonce()).digest();
  const scale = minorUnitOf(currency);
  const whole = BigInt(2 + (digest[0]! % 40));
  if (scale < 2) return { units: whole * 10n ** BigInt(scale), scale };
  let minor = ending === 'processed' ? digest[1]! % 100 : ending;
  if (ending === 'processed' && SANDBOX_OUTCOME_ENDINGS.includes(minor)) minor += 1;
  return { units: whole * 10n ** BigInt(scale) + BigInt(minor) * 10n ** BigInt(scale - 2), scale };
}

/** `needsWallet` false (orders only) reads no balance. The money and state rules use the configured
 *  wallet in every run (P-CLI v1.3): a wallet opened for the kit would let a target hide faults elsewhere. */
export async function targetFacts(ctx: CheckContext, needsWallet: boolean): Promise<TargetFacts> {
  const drivers = driversOf(ctx);
  return { drivers, walletId: ctx.config.merchant.walletId, currency: needsWallet ? await walletCurrency(ctx) : 'INR' };
}
