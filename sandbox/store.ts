import { hash } from 'node:crypto';
import type { Currency, OrderState, PayoutState } from '../schemas/types.js';
import { PAYOUT_FIXTURES, WALLETS, type Wallet } from './tenants.js';

export interface Order {
  merchantId: string;
  svcOrderId: string;
  /** order_id as the merchant sent it (number or string); compared as text (P-DUP-4). */
  orderId: number | string;
  amountMinor: number;
  currency: Currency;
  status: OrderState;
  createdAt: number;
  /** When a PROCESSING payment settles to PAID (ms), if it is processing. */
  settlesAt?: number;
  paymentMethod?: string;
  note?: string;
  /** Where the merchant reached the sandbox when it created the order: the origin of its payment_link. */
  origin: string;
  returnUrl: string;
  customerName: string;
}

export interface Payout {
  merchantId: string;
  payoutId: string;
  payoutOrderId: string;
  walletId: string;
  status: PayoutState;
  amountMinor: number;
  currency: Currency;
  utrNumber: string;
  message: string;
  amountDebited: boolean;
  createdAt: number;
  /** When a PROCESSING payout settles to SUCCESS (ms). */
  settlesAt?: number;
}

/** A Map of at most `limit` entries: a new key past it forgets the oldest unpinned entry; `onSet` and `onForget` let an index follow it. */
export class BoundedMap<K, V> extends Map<K, V> {
  private readonly pinned = new Set<K>();

  constructor(
    private readonly limit: number,
    private readonly hooks: { onSet?(value: V): void; onForget?(value: V): void } = {},
  ) {
    super();
  }

  /** Adds an entry that is never forgotten (the seeded fixtures). */
  pin(key: K, value: V): this {
    this.pinned.add(key);
    return this.set(key, value);
  }

  override set(key: K, value: V): this {
    const previous = super.get(key);
    if (previous !== undefined && previous !== value) this.hooks.onForget?.(previous);
    if (previous === undefined && this.size >= this.limit) {
      // Insertion order: the first unpinned key is the oldest; the pinned few come first and are skipped.
      for (const [oldest, forgotten] of this) {
        if (this.pinned.has(oldest)) continue;
        super.delete(oldest);
        this.hooks.onForget?.(forgotten);
        break;
      }
    }
    super.set(key, value);
    this.hooks.onSet?.(value);
    return this;
  }
}

/** The sandbox's memory, synchronous so a duplicate check and its insert never interleave (P-DUP-2); past
 * `maxRecords` the oldest is forgotten but its identifier kept as a digest, still used (P-DUP-5). */
export class SandboxStore {
  /** Orders by service id, for the checkout pages: found in constant time. */
  private readonly bySvcOrderId = new Map<string, Order>();
  readonly orders: BoundedMap<string, Order>;
  readonly payouts: BoundedMap<string, Payout>;
  readonly wallets = new Map<string, Wallet>();
  /** Digests of the identifiers of forgotten orders and payouts: they stay used (P-DUP-5). */
  private readonly forgottenIds = new Set<string>();
  private sequence = 0;
  /** Told of every change of an order's or a payout's state, after it is made (the webhook sender listens). */
  changed: (change: { order: Order } | { payout: Payout }) => void = () => {};

  /** `wallets`: every wallet as it opens (default: the demo merchants'). */
  constructor(now: number, maxRecords: number, wallets: readonly Wallet[] = WALLETS) {
    this.orders = new BoundedMap(maxRecords, {
      onSet: (order) => this.bySvcOrderId.set(order.svcOrderId, order),
      onForget: (order) => {
        if (this.bySvcOrderId.get(order.svcOrderId) === order) this.bySvcOrderId.delete(order.svcOrderId);
        this.forgottenIds.add(digest('order', order.merchantId, order.orderId));
      },
    });
    this.payouts = new BoundedMap(maxRecords, {
      onForget: (payout) => this.forgottenIds.add(digest('payout', payout.merchantId, payout.payoutOrderId)),
    });
    for (const w of wallets) this.wallets.set(w.id, { ...w });
    for (const seed of PAYOUT_FIXTURES) {
      const wallet = WALLETS.find((w) => w.merchantId === seed.merchantId && w.environment === 'sandbox')!;
      const failed = seed.status === 'FAILED';
      this.payouts.pin(key(seed.merchantId, seed.payoutOrderId), {
        ...seed,
        payoutId: this.nextId('PAY'),
        walletId: wallet.id,
        currency: wallet.currency,
        utrNumber: failed ? 'NA' : seed.status === 'SUCCESS' || seed.status === 'REVERSED' ? this.nextUtr() : '',
        amountDebited: !failed,
        createdAt: now - 86_400_000,
      });
    }
  }

  /** Service-side identifiers: readable, unique within this sandbox's life. */
  nextId(prefix: string): string {
    this.sequence += 1;
    return `${prefix}-${String(this.sequence).padStart(8, '0')}`;
  }

  nextUtr(): string {
    this.sequence += 1;
    return `SBXUTR${String(this.sequence).padStart(10, '0')}`;
  }

  orderBySvcId(svcOrderId: string): Order | undefined {
    return this.bySvcOrderId.get(svcOrderId);
  }

  order(merchantId: string, orderId: number | string): Order | undefined {
    return this.orders.get(key(merchantId, orderId));
  }

  /** Whether a merchant's order_id (or payout_order_id) belonged to a record since forgotten: it stays used. */
  forgotten(kind: 'order' | 'payout', merchantId: string, id: number | string): boolean {
    return this.forgottenIds.has(digest(kind, merchantId, id));
  }

  payout(merchantId: string, payoutOrderId: number | string): Payout | undefined {
    return this.payouts.get(key(merchantId, payoutOrderId));
  }

  putPayout(payout: Payout): void {
    this.payouts.set(key(payout.merchantId, payout.payoutOrderId), payout);
  }

  /** Finds a payout by any merchant: only for the cross-merchant fault and the control endpoints. */
  payoutOfAnyMerchant(payoutOrderId: number | string): Payout | undefined {
    return [...this.payouts.values()].find((p) => p.payoutOrderId === String(payoutOrderId));
  }
}

/** Identifiers compare as text (P-DUP-4): 123 and "123" are one order. */
export function key(merchantId: string, id: number | string): string {
  return `${merchantId}\u0000${String(id)}`;
}

/** 8 bytes of SHA-256: enough to tell ids apart (a clash refuses one fresh id with 409, once in 2^64). */
function digest(kind: 'order' | 'payout', merchantId: string, id: number | string): string {
  return hash('sha256', `${kind}\u0000${key(merchantId, id)}`, 'hex').slice(0, 16);
}
