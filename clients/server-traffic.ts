// The server side of observed traffic (P-TRAFFIC-3): what its answers to requests the kit did not send
// show, judged by the requirements of the server catalog. A requirement no exchange exercised is skipped.
import { OPERATIONS } from '../core/operations.js';
import { isJsonContentType } from '../core/predicates.js';
import { isValid, validateSchema, type SchemaId } from '../schemas/index.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import type { Outcome } from './result.js';
import { NO_SECRET } from './rules.js';
import { describe, field, type ClientRequest } from './traffic.js';

type ServerOutcome = Outcome<ClientRequest>;
export interface ServerTrafficInput {
  requests: readonly ClientRequest[];
  /** The merchant whose secret verifies signatures; without it, the rules that need one are not judged. */
  merchant?: { apiKey: string; secretKey: string };
  toleranceSeconds: number;
  /** Each configured merchant's wallet, by API key (P-TENANT: with two merchants, isolation is judged). */
  wallets?: Readonly<Record<string, string>>;
}

/** P-AUTH-3's clear margin beyond the window: a timestamp this far out is refused by any server clock. */
const CLEAR_MARGIN_SECONDS = 600;
/** A timestamp this close to when the request was sent is fresh by any server clock a client could meet. */
const FRESH_SECONDS = 30;

const answered = (r: ClientRequest) => r.raw.status !== 0;
const ok = (r: ClientRequest) => r.raw.status >= 200 && r.raw.status < 300;
const NOT_EXERCISED: ServerOutcome = { status: 'skipped', reason: 'the traffic did not exercise it' };
const WITHOUT_SECRET: ServerOutcome = { status: 'skipped', reason: NO_SECRET };

/** Passes when every request `applies` to holds; fails with those that do not; skipped when none applies. */
function rule(requests: readonly ClientRequest[], applies: (r: ClientRequest) => boolean, wrong: (r: ClientRequest) => string | undefined) {
  const seen = requests.filter((r) => r.operation !== undefined && answered(r) && applies(r));
  if (seen.length === 0) return NOT_EXERCISED;
  const found = seen.flatMap((r) => {
    const why = wrong(r);
    return why === undefined ? [] : [[r, why] as const];
  });
  if (found.length === 0) return { status: 'passed' } as const;
  const more = found.length > 1 ? ` (and ${found.length - 1} more)` : '';
  return { status: 'failed', message: `${describe(found[0]![0])}: ${found[0]![1]}${more}`, offending: found.map(([r]) => r) } as const;
}

const schemaProblem = (r: ClientRequest, id: SchemaId) => (isValid(id, r.responseJson) ? undefined : `the answer is not a ${id}`);
const errorSchema = (r: ClientRequest): SchemaId => (r.operation === 'payoutStatus' ? 'payout-status-error-envelope' : 'error-envelope');

/** Why a request must be refused with 401 whatever its body (P-AUTH-2), as the requirement it exercises. */
function authDefect(r: ClientRequest, input: ServerTrafficInput): [string, string] | undefined {
  const key = r.header('x-api-key') ?? r.header('x-client-id');
  const timestamp = r.header('x-timestamp');
  const signature = r.header('x-signature');
  if (key === undefined) return ['AUTH-MISSING-KEY', 'no X-API-KEY'];
  if (signature === undefined) return ['AUTH-MISSING-SIGNATURE', 'no X-SIGNATURE'];
  if (timestamp === undefined) return ['AUTH-MISSING-TIMESTAMP', 'no X-TIMESTAMP'];
  if (timestamp === '') return ['AUTH-TIMESTAMP-EMPTY', 'an empty X-TIMESTAMP'];
  if (/^\d{13,}$/.test(timestamp)) return ['AUTH-TIMESTAMP-MILLISECONDS', `X-TIMESTAMP ${timestamp}, in milliseconds`];
  if (/^\d+\.\d+$/.test(timestamp)) return ['AUTH-TIMESTAMP-FRACTIONAL', `a fractional X-TIMESTAMP ${timestamp}`];
  if (!/^\d+$/.test(timestamp)) return ['AUTH-TIMESTAMP-NOT-DIGITS', `X-TIMESTAMP ${JSON.stringify(timestamp)}`];
  const off = Number(timestamp) - r.raw.receivedAt / 1000;
  if (Math.abs(off) > input.toleranceSeconds + CLEAR_MARGIN_SECONDS)
    return [
      off < 0 ? 'AUTH-WINDOW-EXPIRED' : 'AUTH-WINDOW-FUTURE',
      `X-TIMESTAMP ${Math.round(Math.abs(off))} s ${off < 0 ? 'old' : 'ahead'}`,
    ];
  if (input.merchant !== undefined && key === input.merchant.apiKey && signedAs(r, input.merchant.secretKey) === undefined)
    return [
      'AUTH-WRONG-SECRET',
      'a signature that verifies with the configured secret neither over the bytes sent nor over their canonical text',
    ];
  return undefined;
}

/** How the request is signed with `secret`: over the bytes sent, over their canonical text, or neither. */
function signedAs(r: ClientRequest, secret: string): 'canonical' | 'raw' | undefined {
  const [timestamp, signature] = [r.header('x-timestamp'), r.header('x-signature')];
  if (timestamp === undefined || signature === undefined) return undefined;
  const canonical = canonicalOf(r.json);
  if (canonical === r.raw.body && hmacSha256Hex(secret, r.raw.body + timestamp) === signature) return 'canonical';
  if (hmacSha256Hex(secret, r.raw.body + timestamp) === signature) return 'raw';
  return canonical !== undefined && hmacSha256Hex(secret, canonical + timestamp) === signature ? 'raw' : undefined;
}

/** The canonical text of a body, or undefined: not JSON, or a number no signer can write (1e400). */
function canonicalOf(json: unknown): string | undefined {
  try {
    return json === undefined ? undefined : canonicalize(json);
  } catch {
    return undefined;
  }
}

/** Requests that must be taken: the configured merchant's, canonical, correctly signed, fresh, the first with their signature. */
function correctlySigned(requests: readonly ClientRequest[], input: ServerTrafficInput): Set<ClientRequest> {
  const merchant = input.merchant;
  const used = new Set<string>();
  const taken = new Set<ClientRequest>();
  if (merchant === undefined) return taken;
  for (const r of requests) {
    const signature = r.header('x-signature') ?? '';
    const first = !used.has(signature);
    used.add(signature);
    const fresh = Math.abs(Number(r.header('x-timestamp')) - r.raw.receivedAt / 1000) <= FRESH_SECONDS;
    if (first && fresh && r.header('x-api-key') === merchant.apiKey && signedAs(r, merchant.secretKey) === 'canonical') taken.add(r);
  }
  return taken;
}

/** A create of an id this merchant already created (a 2xx before) must be refused (409), never taken again. */
function repeats(requests: readonly ClientRequest[], operation: 'createOrder' | 'transactionInitiation', id: string) {
  const created = new Set<string>();
  const again = new Set<ClientRequest>();
  for (const r of requests.filter((x) => x.operation === operation && answered(x))) {
    const key = `${r.header('x-api-key')}\u0000${field(r.json, id)}`;
    if (field(r.json, id) === undefined) continue;
    if (created.has(key)) again.add(r);
    if (ok(r)) created.add(key);
  }
  return again;
}

/** Decimal text without trailing zeros: 10, "10.00" and 10.0 are one amount (P-AMOUNT). */
const amountText = (value: unknown) =>
  typeof value === 'number' || typeof value === 'string'
    ? String(value)
        .replace(/(\.\d*?)0+$/, '$1')
        .replace(/\.$/, '')
    : undefined;
const recordOf = (r: ClientRequest, key = 'data') => (r.responseJson as Record<string, unknown> | undefined)?.[key];

/** P-STATE-3 over observed traffic: a later read of what this merchant created must say what was created. */
function readsThatDisagree(requests: readonly ClientRequest[]): Map<ClientRequest, string | undefined> {
  const created = new Map<string, { amount: unknown; currency: unknown; id: string | undefined; idField: string }>();
  const reads = new Map<ClientRequest, string | undefined>();
  const key = (r: ClientRequest, kind: string, id: string) => `${kind}\u0000${r.header('x-api-key')}\u0000${field(r.json, id)}`;
  for (const r of requests.filter(ok)) {
    const json = r.json as Record<string, unknown> | undefined;
    if (r.operation === 'createOrder')
      created.set(key(r, 'o', 'order_id'), {
        ...{ amount: json?.order_amount, currency: json?.order_currency },
        ...{ id: field(recordOf(r, 'return_data'), 'svc_order_id'), idField: 'svc_order_id' },
      });
    else if (r.operation === 'transactionInitiation')
      created.set(key(r, 'p', 'payout_order_id'), {
        amount: json?.amount,
        currency: json?.currency,
        id: field(recordOf(r), 'payout_id'),
        idField: 'payout_id',
      });
    const order = r.operation === 'orderStatus' || r.operation === 'orderCancel';
    const write = order
      ? created.get(key(r, 'o', 'order_id'))
      : r.operation === 'payoutStatus'
        ? created.get(key(r, 'p', 'payout_order_id'))
        : undefined;
    if (write === undefined) continue;
    const record = recordOf(r);
    const said = (name: string) => JSON.stringify(field(record, name));
    const [amount, currency] = order ? ['order_amount', 'order_currency'] : ['amount', 'currency'];
    const wrong = [
      amountText(field(record, amount)) !== amountText(write.amount) &&
        `${amount} ${said(amount)}, created as ${JSON.stringify(write.amount)}`,
      field(record, currency) !== write.currency && `${currency} ${said(currency)}, created as ${JSON.stringify(write.currency)}`,
      write.id !== undefined &&
        field(record, write.idField) !== write.id &&
        `${write.idField} ${said(write.idField)}, ${JSON.stringify(write.id)} at creation`,
    ].filter((w) => w !== false);
    reads.set(r, wrong.length > 0 ? `reads ${wrong.join('; ')}` : undefined);
  }
  return reads;
}

const FINAL_ORDER = ['PAID', 'CANCELLED', 'EXPIRED'];
/** P-STATE-2's order: a payout's state never goes back; SUCCESS and FAILED are one step (either ends PROCESSING). */
const PAYOUT_STEP: Record<string, number> = { PENDING: 0, PROCESSING: 1, SUCCESS: 2, FAILED: 2, REVERSED: 3 };

/** P-STATE-1 and -2 over observed traffic: each state an answer shows of a record, after the one shown before it. */
function lifecycleBreaks(requests: readonly ClientRequest[]): Record<'order' | 'payout', Map<ClientRequest, string | undefined>> {
  const last = new Map<string, { state: string; at: number }>();
  const found = { order: new Map<ClientRequest, string | undefined>(), payout: new Map<ClientRequest, string | undefined>() };
  for (const r of requests.filter(ok)) {
    const order = r.operation === 'createOrder' || r.operation === 'orderStatus' || r.operation === 'orderCancel';
    const payout = r.operation === 'transactionInitiation' || r.operation === 'payoutStatus';
    const state = order
      ? field(recordOf(r, r.operation === 'createOrder' ? 'return_data' : 'data'), 'order_status')
      : payout
        ? field(recordOf(r), 'status')
        : undefined;
    if (state === undefined) continue;
    const key = `${order ? 'o' : 'p'}\u0000${r.header('x-api-key')}\u0000${field(r.json, order ? 'order_id' : 'payout_order_id')}`;
    const seen = last.get(key);
    last.set(key, { state, at: r.raw.respondedAt });
    // Two answers in flight at once may have been decided in either order: only one after the other tells.
    if (seen === undefined || r.raw.receivedAt < seen.at) continue;
    const before = seen.state;
    const step = (name: string) => PAYOUT_STEP[name] ?? -1;
    const forward = step(state) > step(before) && (state !== 'REVERSED' || before === 'SUCCESS');
    const back = order ? FINAL_ORDER.includes(before) && (state !== before || r.operation === 'orderCancel') : state !== before && !forward;
    found[order ? 'order' : 'payout'].set(
      r,
      back
        ? `${r.operation === 'orderCancel' && state === before ? 'cancelled again' : `reads ${state}`}, after ${before}${r.operation === 'orderCancel' ? ' (a cancel of a final order answers 422)' : ''}`
        : undefined,
    );
  }
  return found;
}

/** P-TENANT over observed traffic: a merchant's reads of orders only another created, and its uses of another's wallet. */
function crossings(
  requests: readonly ClientRequest[],
  wallets: Readonly<Record<string, string>> = {},
): Map<ClientRequest, [string, string]> {
  const creators = new Map<string, Set<string>>();
  const found = new Map<ClientRequest, [string, string]>();
  for (const r of requests) {
    const key = r.header('x-api-key') ?? '';
    const orderId = field(r.json, 'order_id');
    if (r.operation === 'createOrder' && ok(r) && orderId !== undefined)
      creators.set(orderId, (creators.get(orderId) ?? new Set()).add(key));
    const theirs = orderId !== undefined && creators.has(orderId) && !creators.get(orderId)!.has(key);
    if ((r.operation === 'orderStatus' || r.operation === 'orderCancel') && theirs)
      found.set(r, [
        r.operation === 'orderStatus' ? 'TENANT-ORDER-STATUS' : 'TENANT-ORDER-CANCEL',
        `another merchant's order_id ${orderId}`,
      ]);
    const wallet = field(r.json, 'svc_wallet_id');
    const owner = Object.keys(wallets).find((k) => wallets[k] === wallet);
    if (
      (r.operation === 'balanceInquiry' || r.operation === 'transactionInitiation') &&
      owner !== undefined &&
      owner !== key &&
      key in wallets
    )
      found.set(r, [r.operation === 'balanceInquiry' ? 'TENANT-BALANCE' : 'TENANT-INITIATE', `another merchant's wallet ${wallet}`]);
  }
  return found;
}

/** The create envelope's fields a requirement of their own judges; the rest of it is ORDER-ENVELOPE's. */
const CREATE_FIELDS: ReadonlyArray<[string, string | undefined]> = [
  ['ORDER-CREATED-AT', '/return_data/created_at'],
  ['ORDER-PAYMENT-LINK', '/return_data/payment_link'],
  ['ORDER-STATUS-UNPAID', '/return_data/order_status'],
  ['ORDER-ENVELOPE', undefined],
];

/** What the create envelope's schema finds at `at` (undefined: everywhere no other row judges), or its code. */
function createProblem(r: ClientRequest, at: string | undefined): string | undefined {
  const errors = validateSchema(OPERATIONS.createOrder.record, r.responseJson).errors.filter((e) =>
    at !== undefined ? e.instancePath === at : !CREATE_FIELDS.some(([, path]) => path === e.instancePath),
  );
  if (errors.length > 0) return `the answer's ${errors[0]!.instancePath || 'envelope'} ${errors[0]!.message}`;
  return at === undefined ? codeMismatch(r) : undefined;
}

/** The order_id a create answers is the one sent, a string still a string (P-ORDER-2). */
function echoProblem(r: ClientRequest): string | undefined {
  const [sent, echoed] = [
    (r.json as Record<string, unknown> | undefined)?.order_id,
    (recordOf(r, 'return_data') as Record<string, unknown> | undefined)?.order_id,
  ];
  return String(sent) === String(echoed) && (typeof sent !== 'string' || typeof echoed === 'string')
    ? undefined
    : `order_id ${JSON.stringify(sent)} answered as ${JSON.stringify(echoed)}`;
}

/** Creates of different orders answered with one svc_order_id. */
function sharedServiceIds(requests: readonly ClientRequest[]): Map<ClientRequest, string | undefined> {
  const firstFor = new Map<string, string>();
  const found = new Map<ClientRequest, string | undefined>();
  for (const r of requests.filter((x) => ok(x) && x.operation === 'createOrder')) {
    const [svc, id] = [field(recordOf(r, 'return_data'), 'svc_order_id'), `${r.header('x-api-key')} ${field(r.json, 'order_id')}`];
    if (svc === undefined) continue;
    const before = firstFor.get(svc) ?? id;
    firstFor.set(svc, before);
    found.set(r, before === id ? undefined : `svc_order_id ${svc} answered for another order too`);
  }
  return found;
}

type Row = [id: string, applies: (r: ClientRequest) => boolean, wrong: (r: ClientRequest) => string | undefined];

/** The server catalog's requirements the exchanges exercised, each with its outcome; and why nothing could be judged. */
export function judgeServerTraffic(input: ServerTrafficInput): { outcomes: Array<[string, ServerOutcome]>; couldNotJudge: string[] } {
  const api = input.requests.filter((r) => r.operation !== undefined && answered(r));
  const defects = new Map(api.map((r) => [r, authDefect(r, input)] as const));
  const defect = (r: ClientRequest) => defects.get(r)?.[1];
  const signed = correctlySigned(api, input);
  const [orders, payouts] = [repeats(api, 'createOrder', 'order_id'), repeats(api, 'transactionInitiation', 'payout_order_id')];
  // A repeat refused for authentication says nothing of duplicates.
  const authenticated = (r: ClientRequest) => defect(r) === undefined && r.raw.status !== 401;
  const reads = readsThatDisagree(api);
  const lifecycle = lifecycleBreaks(api);
  const crossed = crossings(api, input.wallets);
  const tenantRows = [...new Set([...crossed.values()].map(([id]) => id))].map((id): Row => {
    const expected = id.startsWith('TENANT-ORDER') ? 404 : 403;
    return [
      id,
      (r) => crossed.get(r)?.[0] === id && authenticated(r),
      (r) => (r.raw.status === expected ? undefined : `${crossed.get(r)![1]}, answered ${r.raw.status}, not ${expected}`),
    ];
  });
  const serviceIds = sharedServiceIds(api);
  const authIds = [...new Set([...defects.values()].flatMap((d) => (d === undefined ? [] : [d[0]])))];
  const rows: Row[] = [
    ['ERR-CONTENT-TYPE', (r) => contentType(r) !== undefined, (r) => notJson(contentType(r)!)],
    ['ERR-ENVELOPE', (r) => !ok(r), (r) => schemaProblem(r, errorSchema(r))],
    ['ERR-CODE-MATCHES-STATUS', (r) => !ok(r) && field(r.responseJson, 'code') !== undefined, codeMismatch],
    ...CREATE_FIELDS.map(([id, at]): Row => [id, (r) => ok(r) && r.operation === 'createOrder', (r) => createProblem(r, at)]),
    [
      'ORDER-SUCCESS-STATUS',
      (r) => ok(r) && r.operation === 'createOrder',
      (r) => ([200, 201].includes(r.raw.status) ? undefined : `answered ${r.raw.status}`),
    ],
    ['ORDER-ORDER-ID-ECHO', (r) => ok(r) && r.operation === 'createOrder', echoProblem],
    ['ORDER-SVC-ORDER-ID', (r) => serviceIds.has(r), (r) => serviceIds.get(r)],
    ['PAYOUT-RECORD-FORMAT', (r) => ok(r) && r.operation === 'payoutStatus', (r) => schemaProblem(r, OPERATIONS.payoutStatus.record)],
    ['AUTH-FAILURE-ENVELOPE', (r) => r.raw.status === 401, (r) => schemaProblem(r, errorSchema(r))],
    [
      'AUTH-BEFORE-BODY',
      (r) => defect(r) !== undefined && r.raw.status !== 401 && !ok(r),
      (r) => `${defect(r)}, answered ${r.raw.status}, not 401`,
    ],
    ...authIds.map(
      (id): Row => [id, (r) => defects.get(r)?.[0] === id, (r) => (ok(r) ? `${defect(r)}, taken: ${r.raw.status}` : undefined)],
    ),
    [
      'AUTH-ACCEPT',
      (r) => signed.has(r),
      (r) => (r.raw.status === 401 ? 'correctly signed, fresh and first with its signature, refused with 401' : undefined),
    ],
    ...tenantRows,
    ['STATE-READS-AGREE', (r) => reads.has(r), (r) => reads.get(r)],
    ['STATE-ORDER-LIFECYCLE', (r) => lifecycle.order.has(r), (r) => lifecycle.order.get(r)],
    ['STATE-PAYOUT-LIFECYCLE', (r) => lifecycle.payout.has(r), (r) => lifecycle.payout.get(r)],
    [
      'DUP-SEQUENTIAL',
      (r) => orders.has(r) && authenticated(r),
      (r) => (r.raw.status === 409 ? undefined : `an order_id this merchant created before, answered ${r.raw.status}, not 409`),
    ],
    [
      'DUP-PERMANENT',
      (r) => payouts.has(r) && authenticated(r),
      (r) => (ok(r) ? `a payout_order_id this merchant used before, taken again: ${r.raw.status}` : undefined),
    ],
  ];
  const outcomes = rows.map(([id, applies, wrong]): [string, ServerOutcome] => [id, rule(api, applies, wrong)]);
  const accept = input.merchant === undefined ? WITHOUT_SECRET : outcomes.find(([id]) => id === 'AUTH-ACCEPT')![1];
  // Every correctly signed request refused, none taken: the configured secret is likely not the server's (P-CLI v1.3).
  const misconfigured = accept.status === 'failed' && accept.offending.length === signed.size;
  return {
    outcomes: outcomes.flatMap(
      ([id, o]): Array<[string, ServerOutcome]> => (id !== 'AUTH-ACCEPT' ? [[id, o]] : misconfigured ? [] : [[id, accept]]),
    ),
    couldNotJudge: misconfigured
      ? ['no correctly signed request was taken by the server: the configured keys are likely not the ones it holds, not its fault']
      : [],
  };
}

const notJson = (type: string) => (isJsonContentType(type) ? undefined : `labelled ${JSON.stringify(type)}`);

/** The answer's Content-Type, '' when it had none; undefined when its headers were not kept (the recording sandbox's). */
const contentType = (r: ClientRequest) => {
  const headers = (r.raw as { responseHeaders?: Array<[string, string]> }).responseHeaders;
  return headers === undefined ? undefined : (headers.find(([n]) => n === 'content-type')?.[1] ?? '');
};

function codeMismatch(r: ClientRequest): string | undefined {
  const code = field(r.responseJson, 'code');
  return code === String(r.raw.status) ? undefined : `body code ${JSON.stringify(code)}, HTTP status ${r.raw.status}`;
}
