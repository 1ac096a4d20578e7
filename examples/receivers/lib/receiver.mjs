// The webhook receiver the Node examples share (P-HOOK-6..9). It reads the raw body, checks
// X-TIMESTAMP (whole seconds, within ±300 s) and X-SIGNATURE (HMAC-SHA256 over the raw body bytes +
// the timestamp text, compared in constant time), parses the event, answers a redelivery with 200
// without processing it again, and answers a new event with 200 at once, processing it afterwards.
// In client mode (SVC_BASE_URL, SVC_API_KEY and SVC_WALLET_ID set as well) processing confirms the
// event with Order Status or Payout Status (P-HOOK-9), and the script starts a payout once it
// listens, so that the sandbox has something to notify. The broken examples pass options to break
// exactly one rule; the defaults are what the profile asks.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { PATHS, createClient, createWithRecovery, describe, sleep, targetOf } from '../../lib/client.mjs';

export const MAX_BODY_BYTES = 1024 * 1024;
export const WINDOW_SECONDS = 300; // P-AUTH-3's default, which P-HOOK-7 applies to deliveries
const REMEMBERED_EVENTS = 10_000; // event_ids kept for redelivery (a real receiver keeps them in its database)
const PAYOUT_AMOUNT = 10.0;
const RECONCILE_AFTER_MS = 8000; // no event about our payout by then: ask Payout Status ourselves

/**
 * Starts a receiver; resolves to { url, server, client, startPayout, close } once it listens.
 * - secret: the merchant secret the deliveries are signed with (required).
 * - port (0), host ('127.0.0.1'), log (one line each).
 * - target: { baseUrl, apiKey, secretKey, walletId } for client mode; absent, nothing is confirmed.
 * Behaviour (one broken example changes one of them):
 * - checkSignature (true): false never looks at X-SIGNATURE (breaks P-HOOK-7).
 * - redeliveryStatus (200): the answer to an event_id already acknowledged (409 breaks P-HOOK-8).
 * - ackAfterMs (0): above 0, a genuine delivery is processed first and answered that many ms after
 *   it arrived (12 000 breaks P-HOOK-6's 10 seconds).
 * - confirmEvents (true): false acts on what a genuine event says without asking the status
 *   operation (breaks P-HOOK-9, seen only in client mode).
 */
export async function startReceiver({
  secret,
  port = 0,
  host = '127.0.0.1',
  log = () => {},
  target,
  checkSignature = true,
  redeliveryStatus = 200,
  ackAfterMs = 0,
  confirmEvents = true,
}) {
  if (!secret) throw new Error('startReceiver: secret is required');
  const seen = new Set(); // acknowledged event_ids, oldest first
  const client = target ? createClient(target) : undefined;
  const notified = new Set(); // payout_order_ids some genuine event was about (for the reconciliation fallback)
  let queue = Promise.resolve(); // processing runs one event at a time, after the answers

  function remember(eventId) {
    seen.add(eventId);
    if (seen.size > REMEMBERED_EVENTS) seen.delete(seen.values().next().value);
  }

  function enqueue(job) {
    const done = queue.then(job).catch((error) => log(`processing failed: ${error?.message ?? error}`));
    queue = done;
    return done;
  }

  async function handle(request, response) {
    const arrived = Date.now();
    const refuse = (status, reason, label = '- -', headers = {}) => {
      log(`${label}: refused ${status} (${reason})`);
      answer(response, status, { error: reason }, headers);
    };
    if (request.method !== 'POST') {
      request.resume();
      return refuse(405, 'only POST is accepted', '- -', { Allow: 'POST' });
    }
    const raw = await readBody(request);
    if (raw === null) return refuse(413, 'body over 1 MiB', '- -', { Connection: 'close' });

    const timestamp = request.headers['x-timestamp'];
    const problem = timestampProblem(timestamp, Math.floor(Date.now() / 1000));
    if (problem) return refuse(401, problem);
    if (checkSignature) {
      const signature = request.headers['x-signature'];
      if (signature === undefined) return refuse(401, 'X-SIGNATURE missing');
      if (!signatureMatches(secret, raw, timestamp, signature)) return refuse(401, 'signature does not match');
    }

    let event;
    try {
      event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      return refuse(400, 'body is not JSON');
    }
    if (event === null || typeof event !== 'object' || Array.isArray(event)) return refuse(400, 'body is not a JSON object');
    if (typeof event.event_id !== 'string' || event.event_id === '') return refuse(400, 'event_id missing');
    const label = `${typeof event.event === 'string' ? event.event : '-'} ${event.event_id}`;

    if (seen.has(event.event_id)) {
      if (redeliveryStatus !== 200) return refuse(redeliveryStatus, 'event already processed', label);
      if (ackAfterMs > 0) await sleep(arrived + ackAfterMs - Date.now());
      log(`${label}: accepted 200 (redelivery, already processed)`);
      return answer(response, 200, { received: true });
    }
    remember(event.event_id);
    if (ackAfterMs > 0) {
      await enqueue(() => processEvent(event));
      await sleep(arrived + ackAfterMs - Date.now());
      log(`${label}: accepted 200 after ${Date.now() - arrived} ms`);
      return answer(response, 200, { received: true });
    }
    log(`${label}: accepted 200`);
    answer(response, 200, { received: true });
    enqueue(() => processEvent(event));
  }

  async function processEvent(event) {
    const data = event.data !== null && typeof event.data === 'object' ? event.data : {};
    const kind = kindOf(event.event);
    if (kind === undefined) return log(`processing ${event.event} ${event.event_id}: not an event this shop handles; ignored`);
    const { id, state } =
      kind === 'payout' ? { id: data.payout_order_id, state: data.status } : { id: data.order_id, state: data.order_status };
    log(`processing ${event.event} ${event.event_id}: the event says ${kind === 'payout' ? 'payout' : 'order'} ${id} is ${state}`);
    if (kind === 'payout' && typeof id === 'string') notified.add(id);
    if (!client) return;
    if (!confirmEvents) return log(`acting on the event as it says: ${kind} ${id} is ${state}`);
    if (typeof id !== 'string' || id === '')
      return log(`processing ${event.event_id}: no ${kind === 'payout' ? 'payout_order_id' : 'order_id'} to confirm`);
    await confirm(kind, id, state);
  }

  /** P-HOOK-9: the status operation, not the event, decides; a failure is logged, never fatal. */
  async function confirm(kind, id, eventState) {
    const [name, path, payload] =
      kind === 'payout'
        ? ['Payout Status', PATHS.payoutStatus, { svc_wallet_id: target.walletId, debit_account_type: 'svc_wallet', payout_order_id: id }]
        : ['Order Status', PATHS.orderStatus, { order_id: id }];
    const result = await client.send(path, payload);
    if (result.status === 200) {
      const state = kind === 'payout' ? result.body?.data?.status : result.body?.data?.order_status;
      const verdict =
        eventState === undefined
          ? ''
          : state === eventState
            ? ' (confirms the event)'
            : ` (the event said ${eventState}; acting on the status operation's answer)`;
      log(`${name} ${id} → 200: ${state}${verdict}`);
    } else {
      log(`${name} ${id} → ${describe(result)}: not confirmed; not acting on the event`);
    }
    if (result.status === 429) await sleep((result.retryAfterSeconds ?? 1) * 1000); // before the next request
  }

  /** What a merchant back end does that makes the sandbox send events: Balance Inquiry, then a 10.00 INR payout. */
  async function startPayout() {
    if (!client) return;
    const balance = await client.send(PATHS.balanceInquiry, { svc_wallet_id: target.walletId });
    if (balance.status !== 200) return log(`Balance Inquiry → ${describe(balance)}: not paying out without a known balance`);
    log(`Balance Inquiry → 200: ${balance.body.data.balance} ${balance.body.data.currency}`);
    if (Number(balance.body.data.balance) < PAYOUT_AMOUNT)
      return log(`Balance Inquiry: less than the payout of ${PAYOUT_AMOUNT}; skipping the payout`);

    const payoutOrderId = `PO-${randomUUID()}`;
    const statusRequest = { svc_wallet_id: target.walletId, debit_account_type: 'svc_wallet', payout_order_id: payoutOrderId };
    const initiated = await createWithRecovery(client, {
      label: `Transaction Initiation ${payoutOrderId}`,
      path: PATHS.transactionInitiation,
      payload: {
        ...statusRequest,
        amount: PAYOUT_AMOUNT,
        currency: 'INR',
        transfer_mode: 'imps',
        beneficiary: { name: 'Asha Traders', account_number: '001234567890', ifsc: 'HDFC0001234' },
      },
      statusPath: PATHS.payoutStatus,
      statusPayload: statusRequest,
      recordOf: (body) => body.data,
      log,
    });
    if (initiated.failed)
      return log(
        `Transaction Initiation ${payoutOrderId}: gave up (${describe(initiated.failed)}: ${initiated.failed.body?.message ?? 'no message'})`,
      );
    const { status, message } = initiated.record;
    log(`Transaction Initiation ${payoutOrderId}: ${status} (${message}); waiting for its webhook`);
    if (status === 'PROCESSING' || status === 'PENDING') {
      // The status operation decides; if no event about it arrives, reconcile once by asking.
      setTimeout(() => {
        if (!notified.has(payoutOrderId))
          enqueue(() => (log(`no event about ${payoutOrderId} yet; asking Payout Status`), confirm('payout', payoutOrderId, undefined)));
      }, RECONCILE_AFTER_MS).unref();
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      log(`- -: refused 500 (${error?.message ?? error})`);
      if (!response.headersSent) answer(response, 500, { error: 'internal error' });
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => (server.off('error', reject), resolve()));
  });
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${server.address().port}/webhooks`;
  const close = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return { url, server, client, startPayout, close };
}

/**
 * Runs a receiver as the script when the file is the one node was started with: SVC_SECRET_KEY
 * (required, exit 2), PORT (0) and HOST (127.0.0.1) from the environment, client mode when
 * SVC_BASE_URL, SVC_API_KEY and SVC_WALLET_ID are set too. The first stdout line is the URL.
 */
export async function runAsScript(moduleUrl, { name, startsPayout = true, ...behaviour }) {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const env = process.env;
  if (!env.SVC_SECRET_KEY) {
    console.error('missing SVC_SECRET_KEY: the merchant secret the webhooks are signed with');
    process.exit(2);
  }
  const port = env.PORT === undefined || env.PORT === '' ? 0 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number (0 for a free one), not ${JSON.stringify(env.PORT)}`);
    process.exit(2);
  }
  const clientMode = Boolean(env.SVC_BASE_URL && env.SVC_API_KEY && env.SVC_WALLET_ID);
  const log = (line) => console.log(`[${name}] ${line}`);
  let receiver;
  try {
    receiver = await startReceiver({
      ...behaviour,
      secret: env.SVC_SECRET_KEY,
      port,
      host: env.HOST || '127.0.0.1',
      log,
      target: clientMode ? targetOf(env) : undefined,
    });
  } catch (error) {
    console.error(`cannot listen: ${error?.code ?? error?.message}`);
    process.exit(1);
  }
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
  console.log(`listening on ${receiver.url}`);
  log(
    clientMode
      ? 'client mode: each genuine new event is confirmed with its status operation'
      : 'receiver only (set SVC_BASE_URL, SVC_API_KEY and SVC_WALLET_ID for client mode)',
  );
  if (clientMode && startsPayout) await receiver.startPayout();
}

/** The body, or null when it is larger than MAX_BODY_BYTES (the rest is read and dropped). */
function readBody(request) {
  const declared = Number(request.headers['content-length']);
  if (declared > MAX_BODY_BYTES) {
    request.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Why X-TIMESTAMP is refused, or undefined: missing, not all decimal digits, or outside the window. */
function timestampProblem(text, nowSeconds) {
  if (text === undefined) return 'X-TIMESTAMP missing';
  if (!/^[0-9]+$/.test(text)) return 'X-TIMESTAMP is not whole UNIX seconds';
  if (Math.abs(nowSeconds - Number(text)) > WINDOW_SECONDS) return `X-TIMESTAMP more than ${WINDOW_SECONDS} s from our clock`;
  return undefined;
}

/** HMAC-SHA256(secret, raw body bytes + timestamp text), hex, compared in constant time. */
function signatureMatches(secret, raw, timestamp, signature) {
  const expected = Buffer.from(createHmac('sha256', secret).update(raw).update(timestamp, 'utf8').digest('hex'), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function kindOf(event) {
  if (typeof event !== 'string') return undefined;
  if (/^payout\.(success|failed|processing|reversed)$/.test(event)) return 'payout';
  if (/^payment\.(success|failed|processing|expired)$/.test(event)) return 'payment';
  return undefined;
}

function answer(response, status, body, headers = {}) {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  response.end(text);
}
