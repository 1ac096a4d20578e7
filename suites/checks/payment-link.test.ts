import { systemClock } from '../../core/clock.js';
// The payment_link checks' https branches, which a plain-http loopback sandbox cannot reach: the
// checks run here over a stub context whose Create Order answers a chosen payment_link.
import { describe, expect, it } from 'vitest';
import { CheckFailure, CheckSkipped, type Check, type CheckContext } from '../check.js';
import type { TargetConfig } from '../config.js';
import type { Exchange } from '../http.js';
import { idSource } from '../ids.js';
import { settleInOrder } from '../limiter.js';
import { createOrderChecks } from './orders.js';

function stubContext(baseUrl: string, environment: TargetConfig['environment'], paymentLink: string): CheckContext {
  const config: TargetConfig = {
    baseUrl,
    environment,
    merchant: { apiKey: 'pk_test_stub', secretKey: 'sk_test_stub', walletId: 'WAL-STUB' },
  };
  return {
    config,
    nowSeconds: () => Math.floor(Date.now() / 1000),
    redact: (text) => text,
    runKey: {},
    sendSetup: undefined as never,
    quietly: undefined as never,
    seed: 1,
    runs: 1,
    concurrency: 1,
    sweep: (cases, task) => settleInOrder(cases, 1, task),
    checkId: 'payment-link',
    clock: systemClock,
    ids: idSource(1, 1),
    operation: () => {
      throw new CheckSkipped('not configured');
    },
    send(options): Promise<Exchange> {
      const json = {
        code: '201',
        status: 'success',
        message: 'Order created',
        return_data: {
          svc_order_id: 'S-1',
          created_at: '21-11-2026 06:05 PM',
          order_id: 'x',
          order_status: 'UN_PAID',
          payment_link: paymentLink,
        },
      };
      return Promise.resolve({
        label: options.label,
        request: { method: 'POST', url: baseUrl + options.path, headers: {}, body: '' },
        response: { status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json), json },
        ms: 1,
      });
    },
    note() {},
    notice() {},
    exclusive: (_lane, work) => work(),
    webhooks: () => Promise.reject(new Error('no webhooks in this test')),
  };
}

async function outcomeOf(check: Check, ctx: CheckContext): Promise<'passed' | 'failed' | 'skipped'> {
  try {
    await check.run(ctx);
    return 'passed';
  } catch (error) {
    if (error instanceof CheckSkipped) return 'skipped';
    if (error instanceof CheckFailure) return 'failed';
    throw error;
  }
}

const byId = (id: string) => createOrderChecks.find((c) => c.id === id)!;

const CASES = [
  {
    check: 'create-order-payment-link',
    baseUrl: 'https://pay.example.test',
    environment: 'production',
    link: 'http://pay.example.test/c/1',
    outcome: 'failed',
  },
  {
    check: 'create-order-payment-link',
    baseUrl: 'https://pay.example.test',
    environment: 'production',
    link: 'https://pay.example.test/c/1',
    outcome: 'passed',
  },
  {
    check: 'create-order-payment-link',
    baseUrl: 'https://sbx.example.test',
    environment: 'sandbox',
    link: 'http://sbx.example.test/c/1',
    outcome: 'passed',
  },
  {
    check: 'create-order-payment-link',
    baseUrl: 'https://sbx.example.test',
    environment: 'sandbox',
    link: 'ftp://sbx.example.test/c/1',
    outcome: 'failed',
  },
  {
    check: 'create-order-payment-link',
    baseUrl: 'https://sbx.example.test',
    environment: 'sandbox',
    link: '//sbx.example.test/c/1',
    outcome: 'failed',
  },
  {
    check: 'create-order-payment-link-https',
    baseUrl: 'https://sbx.example.test',
    environment: 'sandbox',
    link: 'http://sbx.example.test/c/1',
    outcome: 'failed',
  },
  {
    check: 'create-order-payment-link-https',
    baseUrl: 'https://sbx.example.test',
    environment: 'sandbox',
    link: 'https://sbx.example.test/c/1',
    outcome: 'passed',
  },
  {
    check: 'create-order-payment-link-https',
    baseUrl: 'http://127.0.0.1:4010',
    environment: 'sandbox',
    link: 'http://127.0.0.1:4010/c/1',
    outcome: 'skipped',
  },
] as const;

describe('payment_link: https in production (MUST) and under an https base URL (SHOULD)', () => {
  it.each(CASES)('$check, $environment at $baseUrl, link $link: $outcome', async ({ check, baseUrl, environment, link, outcome }) => {
    expect(await outcomeOf(byId(check), stubContext(baseUrl, environment, link))).toBe(outcome);
  });
});
