// The small HTTP layer the Node example clients share: reads the target from the environment,
// signs each request with the kit's signer, sends it with a timeout and never throws on an HTTP
// or transport failure (the flows decide what a failure means). The broken examples pass options
// to break exactly one rule; the defaults are what the profile asks (P-CLIENT-1..3).
import { pathToFileURL } from 'node:url';
import { signPayload } from 'svc-conformance';

export const PATHS = {
  createOrder: '/api/v3/pg/order/create',
  orderStatus: '/api/v3/pg/order/status',
  balanceInquiry: '/api/v3/banking/balance',
  transactionInitiation: '/api/v3/banking/payment/initiate',
  payoutStatus: '/api/v3/banking/payment/status',
};

/** The target, from the variables `svc-conformance verify-client` sets; exits 2 when one is missing. */
export function targetFromEnv(env = process.env) {
  const missing = missingTargetVariables(env);
  if (missing.length > 0) {
    console.error(
      `missing ${missing.join(', ')}: run under \`svc-conformance verify-client -- …\` or export them from \`svc-conformance serve\``,
    );
    process.exit(2);
  }
  return targetOf(env);
}

const TARGET_VARIABLES = ['SVC_BASE_URL', 'SVC_API_KEY', 'SVC_SECRET_KEY', 'SVC_WALLET_ID'];

function missingTargetVariables(env) {
  return TARGET_VARIABLES.filter((name) => !env[name]);
}

/** The target in `env`; throws (for in-process use, e.g. under installClientHarness) when a variable is missing. */
export function targetOf(env) {
  const missing = missingTargetVariables(env);
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}`);
  return {
    baseUrl: env.SVC_BASE_URL.replace(/\/+$/, ''),
    apiKey: env.SVC_API_KEY,
    secretKey: env.SVC_SECRET_KEY,
    walletId: env.SVC_WALLET_ID,
  };
}

/**
 * Runs a flow `run(env)` as the script when the file is the one node was started with: the target
 * from the environment (exit 2 when missing), and the flow's result as the exit status. Imported,
 * the file only exports its flow, so a test can run it in-process.
 */
export async function runAsScript(moduleUrl, run) {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  targetFromEnv();
  process.exitCode = await run(process.env);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A signing client. Options:
 * - timeoutMs: how long to wait for an answer (default 3000).
 * - sign(payload, timestamp, secret) → { canonical, signature }: defaults to the profile's signer;
 *   the text it returns is sent byte for byte.
 * - encode(text) → the bytes sent for that text: defaults to its UTF-8 bytes, nothing added.
 */
export function createClient(target, { timeoutMs = 3000, sign = defaultSign, encode = (text) => Buffer.from(text, 'utf8') } = {}) {
  // (timestamp, signature) pairs already sent: an identical body in the same second would repeat a
  // pair (P-CLIENT-3), so such a request waits for the next second instead.
  const sentPairs = new Set();

  async function signFresh(payload) {
    for (;;) {
      const timestamp = Math.floor(Date.now() / 1000);
      const signed = sign(payload, timestamp, target.secretKey);
      const pair = `${timestamp}:${signed.signature}`;
      if (!sentPairs.has(pair)) {
        sentPairs.add(pair);
        return { timestamp, ...signed };
      }
      await sleep(1000 - (Date.now() % 1000) + 5);
    }
  }

  /** POSTs a payload; resolves to { status, body, retryAfterSeconds } or { status: 0, error }. */
  async function send(path, payload) {
    const { timestamp, canonical, signature } = await signFresh(payload);
    try {
      const response = await fetch(target.baseUrl + path, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'X-API-KEY': target.apiKey,
          'X-TIMESTAMP': String(timestamp),
          'X-SIGNATURE': signature,
        },
        body: encode(canonical),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      let body = null;
      try {
        body = JSON.parse(text);
      } catch {
        // a non-JSON answer (a proxy's error page): the status alone decides
      }
      return { status: response.status, body, retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')) };
    } catch (error) {
      const timedOut = error?.name === 'TimeoutError' || error?.name === 'AbortError';
      return {
        status: 0,
        error: timedOut ? `no answer within ${timeoutMs} ms` : `transport error: ${error?.cause?.code ?? error?.message}`,
      };
    }
  }

  return { send };
}

function defaultSign(payload, timestamp, secret) {
  const { canonical, signature } = signPayload({ payload, timestamp, secret });
  return { canonical, signature };
}

/** Retry-After in seconds (a number of seconds or an HTTP date); undefined when absent or unreadable. */
function retryAfterSeconds(value) {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The answer in a word for the log: "201", "503", "no answer within 3000 ms". */
export function describe(result) {
  return result.status === 0 ? result.error : String(result.status);
}

/** A failure the profile says to recover from by asking the status operation first (P-CLIENT-6). */
export function isRecoverable(result) {
  return result.status === 0 || result.status === 429 || result.status >= 500;
}

/**
 * Creates a record (an order or a payout) safely: when the create fails with a 5xx, a 429 or no
 * answer, it waits (`backoffMs(result)`), asks the status operation, and repeats the SAME create
 * only when the status says the record does not exist (404). Resolves to
 * { record, created: result } on success, or { failed: result } when it gives up.
 */
export async function createWithRecovery(
  client,
  { label, path, payload, statusPath, statusPayload, recordOf, log, backoffMs = defaultBackoff, attempts = 3 },
) {
  let result;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    result = await client.send(path, payload);
    log(`${label}: ${attempt === 1 ? 'sent' : 'repeated the same request'} → ${describe(result)}`);
    if (result.status >= 200 && result.status < 300) return { record: recordOf(result.body), created: result };
    if (!isRecoverable(result)) break;

    const wait = backoffMs(result);
    log(`${label}: waiting ${wait} ms, then asking the status operation (before any repeat)`);
    await sleep(wait);
    const status = await askStatus(client, statusPath, statusPayload, log, label);
    if (status.status === 200) {
      log(`${label}: the earlier attempt went through; not repeating it`);
      return { record: status.body.data, created: status };
    }
    if (status.status !== 404 || attempt === attempts) break; // unknown outcome, or out of attempts
  }
  return { failed: result };
}

/** Asks a status operation, riding out its own transient failures (bounded). */
async function askStatus(client, path, payload, log, label) {
  let status;
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    status = await client.send(path, payload);
    log(`${label}: status query → ${describe(status)}`);
    if (!isRecoverable(status)) return status;
    await sleep(status.retryAfterSeconds !== undefined ? status.retryAfterSeconds * 1000 : 1000);
  }
  return status;
}

/** 429: the server's Retry-After (default 1 s); any other failure: 1 s. */
function defaultBackoff(result) {
  if (result.status === 429) return (result.retryAfterSeconds ?? 1) * 1000;
  return 1000;
}
