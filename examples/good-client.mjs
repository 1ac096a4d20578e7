#!/usr/bin/env node
// A conforming merchant back end (P-CLIENT-1..8): takes an order, checks it with Order Status,
// then pays a supplier: Balance Inquiry, Transaction Initiation, Payout Status until it settles.
// Every create that fails with a 5xx, a 429 or no answer is followed by a status query, and is
// repeated (the same order, the same payout) only if the status query says it does not exist.
//
// As a script it reads SVC_* from the environment; `runGoodClient(env)` runs the same flow in-process
// (e.g. under the kit's installClientHarness) and resolves to the exit status the script would have.
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { PATHS, createClient, createWithRecovery, describe, sleep, targetFromEnv } from './lib/client.mjs';

const PAYOUT_AMOUNT = 10.0;
const POLL_EVERY_MS = 1000; // a status poll with an identical body needs a new second anyway (P-CLIENT-3)
const POLL_FOR_MS = 6000;

/** The flow against the target in `env` (SVC_BASE_URL, SVC_API_KEY, SVC_SECRET_KEY, SVC_WALLET_ID); resolves to 0 or 1. */
export async function runGoodClient(env, { log = (line) => console.log(`[good-client] ${line}`) } = {}) {
  const missing = ['SVC_BASE_URL', 'SVC_API_KEY', 'SVC_SECRET_KEY', 'SVC_WALLET_ID'].filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`runGoodClient: missing ${missing.join(', ')}`);
  const target = {
    baseUrl: env.SVC_BASE_URL.replace(/\/+$/, ''),
    apiKey: env.SVC_API_KEY,
    secretKey: env.SVC_SECRET_KEY,
    walletId: env.SVC_WALLET_ID,
  };
  const client = createClient(target, { timeoutMs: 3000 });

  // 1. Create Order, with a fresh order_id.
  const orderId = `ORD-${randomUUID()}`;
  const order = {
    order_id: orderId,
    order_amount: 1499.5,
    order_currency: 'INR',
    order_note: 'Two notebooks, gift wrapped',
    service_type: 'payment',
    customer: {
      name: 'José Müller',
      email: 'jose.muller@example.com',
      phone: '+919812345678',
      address: { line1: '12 MG Road', line2: 'Flat 4B', city: 'Pune', state: 'MH', country: 'IN', postal_code: '411001' },
    },
    return_url: `https://shop.example/checkout/return?order=${orderId}&lang=en`,
  };
  const created = await createWithRecovery(client, {
    label: `Create Order ${orderId}`,
    path: PATHS.createOrder,
    payload: order,
    statusPath: PATHS.orderStatus,
    statusPayload: { order_id: orderId },
    recordOf: (body) => body.return_data,
    log,
  });
  if (created.failed) {
    log(`Create Order ${orderId}: gave up (${describe(created.failed)}: ${created.failed.body?.message ?? 'no message'})`);
    return 1;
  }
  log(`Create Order ${orderId}: ${created.record.order_status}, checkout at ${created.record.payment_link ?? '(see Order Status)'}`);

  // 2. Order Status: the service's word on the order, not the create answer.
  const orderStatus = await client.send(PATHS.orderStatus, { order_id: orderId });
  log(`Order Status ${orderId} → ${describe(orderStatus)}${orderStatus.status === 200 ? `: ${orderStatus.body.data.order_status}` : ''}`);

  // 3. Balance Inquiry before paying out (P-CLIENT-8).
  const balance = await client.send(PATHS.balanceInquiry, { svc_wallet_id: target.walletId });
  if (balance.status !== 200) {
    log(`Balance Inquiry → ${describe(balance)}: not paying out without a known balance`);
    return 0;
  }
  log(`Balance Inquiry → 200: ${balance.body.data.balance} ${balance.body.data.currency}`);
  if (Number(balance.body.data.balance) < PAYOUT_AMOUNT) {
    log(`Balance Inquiry: ${balance.body.data.balance} is less than the payout of ${PAYOUT_AMOUNT}; skipping the payout`);
    return 0;
  }

  // 4. Transaction Initiation, with a fresh payout_order_id.
  const payoutOrderId = `PO-${randomUUID()}`;
  const payoutStatusRequest = { svc_wallet_id: target.walletId, debit_account_type: 'svc_wallet', payout_order_id: payoutOrderId };
  const initiated = await createWithRecovery(client, {
    label: `Transaction Initiation ${payoutOrderId}`,
    path: PATHS.transactionInitiation,
    payload: {
      svc_wallet_id: target.walletId,
      debit_account_type: 'svc_wallet',
      payout_order_id: payoutOrderId,
      amount: PAYOUT_AMOUNT,
      currency: 'INR',
      transfer_mode: 'imps',
      beneficiary: { name: 'Asha Traders', account_number: '001234567890', ifsc: 'HDFC0001234' },
    },
    statusPath: PATHS.payoutStatus,
    statusPayload: payoutStatusRequest,
    recordOf: (body) => body.data,
    log,
  });
  if (initiated.failed) {
    log(
      `Transaction Initiation ${payoutOrderId}: gave up (${describe(initiated.failed)}: ${initiated.failed.body?.message ?? 'no message'})`,
    );
    return 1;
  }

  // 5. Payout Status: the initiation answer is not the final word (interface: final verification is
  // done with Payout Status), so ask at least once, then poll while PROCESSING/PENDING (bounded).
  let payout = initiated.record;
  log(`Transaction Initiation ${payoutOrderId}: ${payout.status} (${payout.message})`);
  const deadline = Date.now() + POLL_FOR_MS;
  for (
    let first = true;
    first || ((payout.status === 'PROCESSING' || payout.status === 'PENDING') && Date.now() < deadline);
    first = false
  ) {
    if (!first) await sleep(POLL_EVERY_MS);
    const polled = await client.send(PATHS.payoutStatus, payoutStatusRequest);
    log(`Payout Status ${payoutOrderId} → ${describe(polled)}${polled.status === 200 ? `: ${polled.body.data.status}` : ''}`);
    if (polled.status === 200) payout = polled.body.data;
  }

  if (payout.status === 'SUCCESS') log(`payout ${payoutOrderId} settled: UTR ${payout.utr_number}`);
  else if (payout.status === 'FAILED')
    log(`payout ${payoutOrderId} FAILED: ${payout.message} (debited: ${payout.amount_debited}); nothing to reconcile`);
  else log(`payout ${payoutOrderId} still ${payout.status}; left for the next reconciliation run`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  targetFromEnv(); // exits 2, naming the missing variables, when one is not set
  process.exitCode = await runGoodClient(process.env);
}
