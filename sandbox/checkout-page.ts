// The hosted checkout's HTML: self-contained pages (inline CSS, no scripts, no external assets), every
// merchant-supplied string escaped. Pure functions of a view; checkout.ts decides which page to answer.
import type { OrderState } from '../schemas/types.js';
import { SandboxResponse } from './envelope.js';

/** The interface's payment methods (What the service does: UPI, QR, net banking, cards, wallets), by form value. */
export const PAYMENT_METHODS = { upi: 'UPI', qr: 'QR code', netbanking: 'Net banking', card: 'Card', wallet: 'Wallet' } as const;
export type PaymentMethod = keyof typeof PAYMENT_METHODS;

/** What the customer can make the sandbox do with the payment, by form value. */
export const OUTCOMES = {
  success: 'Pay (success)',
  failure: 'Simulate failure',
  pending: 'Simulate pending network confirmation',
  expire: 'Let the session expire',
} as const;
export type Outcome = keyof typeof OUTCOMES;

/** What a page shows of one order. */
export interface CheckoutView {
  svcOrderId: string;
  merchantName: string;
  orderId: string;
  amount: string;
  currency: string;
  status: OrderState;
  customerName: string;
  note?: string;
  returnUrl: string;
  paymentMethod?: string;
  settlesInSeconds?: number;
}

const CHARACTER_REFERENCES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => CHARACTER_REFERENCES[c]!);
}

const STATE_WORDS: Readonly<Record<OrderState, string>> = {
  UN_PAID: 'Awaiting payment',
  PROCESSING: 'Payment processing',
  PAID: 'Paid',
  FAILED: 'Payment failed',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Checkout session expired',
};

const STYLE = `
:root { color-scheme: light; --ink: #1c2430; --muted: #5b6675; --line: #dde3ea; --brand: #1f5fbf; }
* { box-sizing: border-box; }
body { margin: 0; background: #f2f5f9; color: var(--ink); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 30rem; margin: 2.5rem auto; padding: 0 1rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 1.5rem; box-shadow: 0 2px 10px rgba(20, 40, 70, .06); }
.sandbox { font-size: .8rem; color: #7a4b00; background: #fff4dc; border: 1px solid #f1d48a; border-radius: 6px; padding: .3rem .6rem; margin-bottom: 1rem; }
h1 { font-size: 1.3rem; margin: 0 0 1rem; }
.amount { font-size: 2rem; font-weight: 650; margin: .25rem 0 1rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .3rem 1rem; margin: 0 0 1.25rem; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: .8rem; font-weight: 600; padding: .1rem .5rem; border-radius: 999px; background: #e8edf3; }
.state-PAID { background: #dcf5e3; color: #126b2f; }
.state-FAILED, .state-CANCELLED { background: #fde2e1; color: #9b1c14; }
.state-PROCESSING { background: #fff1c9; color: #7a4b00; }
fieldset { border: 0; padding: 0; margin: 0 0 1.25rem; }
legend { font-weight: 600; margin-bottom: .5rem; }
.methods { display: grid; grid-template-columns: repeat(auto-fill, minmax(8rem, 1fr)); gap: .5rem; }
.methods label { display: flex; gap: .5rem; align-items: center; border: 1px solid var(--line); border-radius: 8px; padding: .55rem .7rem; cursor: pointer; }
.methods label:has(input:checked) { border-color: var(--brand); background: #eef4ff; }
.actions { display: grid; gap: .5rem; }
button { font: inherit; border-radius: 8px; padding: .65rem 1rem; cursor: pointer; border: 1px solid var(--line); background: #fff; color: var(--ink); }
button.primary { background: var(--brand); border-color: var(--brand); color: #fff; font-weight: 600; }
.error { color: #9b1c14; background: #fde2e1; border-radius: 6px; padding: .5rem .75rem; }
a { color: var(--brand); }
footer { color: var(--muted); font-size: .8rem; text-align: center; margin-top: 1rem; }
`;

/** A complete page of `parts`, one a line; no script runs and nothing is fetched from elsewhere (see the CSP). */
function htmlPage(status: number, title: string, ...parts: string[]): SandboxResponse {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="card">
<div class="sandbox">Sandbox checkout: no real money moves.</div>
${parts.join('\n')}
</div>
<footer>svc-conformance reference sandbox</footer>
</main>
</body>
</html>
`;
  return new SandboxResponse(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
  });
}

function summary(view: CheckoutView): string {
  const rows: Array<[string, string]> = [
    ['Merchant', view.merchantName],
    ['Order', view.orderId],
    ['Customer', view.customerName],
    ...(view.note === undefined ? [] : [['Note', view.note] as [string, string]]),
    ...(view.paymentMethod === undefined ? [] : [['Method', methodLabel(view.paymentMethod)] as [string, string]]),
  ];
  return `<div class="amount">${escapeHtml(view.amount)} ${escapeHtml(view.currency)}</div>
<dl>
${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('\n')}
<dt>Status</dt><dd><span class="badge state-${view.status}" data-state="${view.status}">${view.status}</span> ${escapeHtml(STATE_WORDS[view.status])}</dd>
</dl>`;
}

function methodLabel(value: string): string {
  return Object.hasOwn(PAYMENT_METHODS, value) ? PAYMENT_METHODS[value as PaymentMethod] : value;
}

/** A link back to the merchant; only ever a link, never an automatic redirect. */
function returnLink(view: CheckoutView): string {
  if (!/^https?:\/\//i.test(view.returnUrl)) return '';
  return `<p><a href="${escapeHtml(view.returnUrl)}" rel="noreferrer">Return to ${escapeHtml(view.merchantName)}</a></p>`;
}

function payForm(view: CheckoutView): string {
  const methods = Object.entries(PAYMENT_METHODS).map(
    ([value, label]) => `<label><input type="radio" name="method" value="${value}" required> ${escapeHtml(label)}</label>`,
  );
  const buttons = Object.entries(OUTCOMES).map(
    ([value, label], i) =>
      `<button type="submit" name="outcome" value="${value}"${i === 0 ? ' class="primary"' : ''}>${escapeHtml(label)}</button>`,
  );
  return `<form method="post" action="/checkout/${encodeURIComponent(view.svcOrderId)}">
<fieldset>
<legend>Payment method</legend>
<div class="methods">
${methods.join('\n')}
</div>
</fieldset>
<div class="actions">
${buttons.join('\n')}
</div>
</form>`;
}

function pendingNote(view: CheckoutView): string {
  if (view.status !== 'PROCESSING') return '';
  const when = view.settlesInSeconds === undefined ? '' : ` It settles to PAID in about ${view.settlesInSeconds} s.`;
  return `<p>The payment network is confirming this payment.${when} The merchant verifies the outcome with Order Status.</p>`;
}

const errorLine = (text: string) => `<p class="error" role="alert">${escapeHtml(text)}</p>`;

/** GET /checkout/{id}: the order and, while it is UN_PAID, the payment form. */
export function checkoutPage(view: CheckoutView, error?: string, status = 200): SandboxResponse {
  const payable = view.status === 'UN_PAID';
  const heading = `<h1>${payable ? 'Complete your payment' : 'Order status'}</h1>`;
  const rest = payable ? payForm(view) : `${pendingNote(view)}${returnLink(view)}`;
  return htmlPage(status, `Pay ${view.merchantName}`, heading, error === undefined ? '' : errorLine(error), summary(view), rest);
}

const RESULT_HEADINGS: Partial<Record<OrderState, string>> = {
  PAID: 'Payment successful',
  FAILED: 'Payment failed',
  PROCESSING: 'Payment processing',
  EXPIRED: 'Checkout session expired',
};

/** POST /checkout/{id}: what happened, and a link back to the merchant's return_url. */
export function resultPage(view: CheckoutView): SandboxResponse {
  const heading = RESULT_HEADINGS[view.status] ?? 'Order status';
  return htmlPage(200, heading, `<h1>${escapeHtml(heading)}</h1>`, summary(view), pendingNote(view), returnLink(view));
}

/** POST on an order that is no longer UN_PAID (409): says its state. */
export function notPayablePage(view: CheckoutView): SandboxResponse {
  const why = `The order is ${view.status} (${STATE_WORDS[view.status]}); only an UN_PAID order takes a payment.`;
  return htmlPage(409, 'Order not payable', '<h1>This order cannot be paid</h1>', errorLine(why), summary(view), returnLink(view));
}

export function notFoundPage(svcOrderId: string): SandboxResponse {
  const where = `<p>There is no order <code>${escapeHtml(svcOrderId)}</code> in this sandbox. Checkout links come from Create Order's <code>payment_link</code>.</p>`;
  return htmlPage(404, 'Checkout not found', '<h1>Checkout not found</h1>', where);
}
