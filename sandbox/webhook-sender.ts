// The webhook sender (P-HOOK-1…5): each change the profile names goes to the merchant's URL, signed, and is
// retried (1, 2, 4, 8 s) with the same id and body, a fresh signature. Each sender fault breaks one rule.
import { randomBytes } from 'node:crypto';
import { ACK_WITHIN_MS, eventForState, webhookUrlProblem, type WebhookEvent } from '../core/webhooks.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import { DeliveryClient, deliveryHeaders, type Delivery } from '../webhooks/delivery.js';
import type { FaultName } from './faults.js';
import type { ResolvedOptions } from './options.js';
import type { Timers } from './timers.js';
import type { Merchant } from './tenants.js';

/** A change of state, and the record its status operation answers now (the event's `data`). */
export interface StateChange {
  merchantId: string;
  subject: 'payment' | 'payout';
  state: string;
  record: Record<string, unknown>;
}

export class WebhookSender {
  private readonly urls = new Map<string, string>();
  private readonly client = new DeliveryClient();
  private readonly inFlight = new Set<Promise<void>>();
  // Event ids stay unique across sandbox restarts: a receiver that remembers ids must never see one again.
  private readonly idPrefix = `evt_${randomBytes(4).toString('hex')}`;
  private sequence = 0;
  private closed = false;
  /** Retries waiting for their time. */
  private scheduled = 0;
  private readonly fault = (name: FaultName) => this.options.faults.has(name);

  constructor(
    private readonly options: ResolvedOptions,
    private readonly timers: Timers,
  ) {
    if (options.webhookUrl !== undefined) {
      for (const merchant of options.merchants) if (merchant.environment === 'sandbox') this.urls.set(merchant.id, options.webhookUrl);
    }
  }

  urlOf(merchantId: string): string | undefined {
    return this.urls.get(merchantId);
  }

  /** Registers (or, with null, removes) a merchant's receiver; returns the one it replaces. */
  register(merchantId: string, url: string | null): string | undefined {
    if (url !== null) {
      const problem = webhookUrlProblem(url);
      if (problem !== undefined) throw new RangeError(`webhook URL ${JSON.stringify(url)} cannot be used: ${problem}`);
    }
    const previous = this.urls.get(merchantId);
    if (url === null) this.urls.delete(merchantId);
    else this.urls.set(merchantId, url);
    return previous;
  }

  /** Fires the event a change calls for, if any, to the merchant's receiver, if one is registered. */
  notify(change: StateChange): void {
    let name = eventForState(change.subject, change.state);
    let data = change.record;
    if (name === undefined || (name === 'payout.failed' && this.fault('hook-silent-failures'))) return;
    if (name === 'payout.processing' && this.fault('hook-contradicts-status')) {
      name = 'payout.success';
      data = { ...data, status: 'SUCCESS', message: 'Payout completed' };
    }
    const url = this.urls.get(change.merchantId);
    const merchant = this.options.merchants.find((m) => m.id === change.merchantId && m.environment === 'sandbox');
    if (url === undefined || merchant === undefined || this.closed) return;
    this.sequence += 1;
    const createdAt = this.options.clock();
    const event = {
      event_id: `${this.idPrefix}${String(this.sequence).padStart(6, '0')}`,
      event: name,
      created_at: this.fault('hook-created-at-iso') ? new Date(createdAt).toISOString() : Math.floor(createdAt / 1000),
      data,
    } as WebhookEvent;
    this.attempt(url, merchant, event, 1, undefined);
  }

  /** One attempt; a failure schedules the next after the retry delay, until the delays run out. */
  private attempt(url: string, merchant: Merchant, event: WebhookEvent, attempt: number, firstTimestamp: number | undefined): void {
    const now = Math.floor(this.options.clock() / 1000);
    const timestamp = firstTimestamp !== undefined && this.fault('hook-same-timestamp') ? firstTimestamp : now;
    const delivery = this.signed(merchant, event, timestamp);
    const sending = this.client.post(url, delivery, ACK_WITHIN_MS).then((result) => {
      if (this.closed) return;
      const outcome = result.status !== undefined ? String(result.status) : `no answer (${result.errorMessage ?? result.error})`;
      this.log(event, `attempt ${attempt} ${outcome} ${result.ms}ms`);
      this.options.onDeliveryAttempt?.({ url, event, attempt, delivery, result, at: this.options.clock() });
      if (result.status === 200) return;
      const schedule = this.options.webhookRetryDelaysSeconds;
      const delays = this.fault('hook-retry-countdown') ? [...schedule].reverse() : schedule;
      if (attempt > delays.length || this.fault('hook-no-retry')) {
        this.log(event, `not acknowledged after ${attempt} attempt${attempt > 1 ? 's' : ''}; giving up`);
        return;
      }
      this.scheduled += 1;
      this.timers.after(delays[attempt - 1]! * 1000, () => {
        this.scheduled -= 1;
        this.attempt(url, merchant, event, attempt + 1, firstTimestamp ?? timestamp);
      });
    });
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }

  /** The delivery of P-HOOK-1, or what a sender fault makes of it. */
  private signed(merchant: Merchant, event: WebhookEvent, timestamp: number): Delivery {
    const asBuilt = JSON.stringify(event);
    const body = this.fault('hook-non-canonical-body') ? asBuilt : canonicalize(event);
    const signedText = this.fault('hook-sign-reserialized') ? asBuilt : body;
    const secret = this.fault('hook-separate-secret') ? `whsec_${merchant.id}_sandbox` : merchant.secretKey;
    const signature = hmacSha256Hex(secret, signedText + String(timestamp));
    return { body, headers: deliveryHeaders(this.fault('hook-no-event-id') ? undefined : event.event_id, String(timestamp), signature) };
  }

  private log(event: WebhookEvent, what: string): void {
    this.options.deliveryLog(`${new Date(this.options.clock()).toISOString()} webhook ${event.event} ${event.event_id} ${what}`);
  }

  get busy(): boolean {
    return this.inFlight.size > 0 || this.scheduled > 0;
  }

  /** Stops sending: no retry is scheduled after this, and attempts in flight are cut off. */
  async close(): Promise<void> {
    this.closed = true;
    this.client.abort();
    await Promise.allSettled([...this.inFlight]);
    await this.client.close();
  }
}
