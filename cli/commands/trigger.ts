// `svc-conformance trigger EVENT`: makes the change that fires EVENT on a running sandbox, as a developer
// would by hand; the sandbox then delivers it to the registered webhook URL.
import type { Exchange } from '../../core/exchange.js';
import { isJsonObject } from '../../core/json-of.js';
import { OPERATIONS } from '../../core/operations.js';
import { isWebhookEventName, WEBHOOK_EVENT_NAMES, type WebhookEventName } from '../../core/webhooks.js';
import { OPERATION_PATHS } from '../../sandbox/paths.js';
import { CURRENCIES, type Currency } from '../../schemas/types.js';
import { orderBody, payoutBody } from '../../suites/requests.js';
import { loadConfig, type TargetConfig } from '../../suites/config.js';
import { TargetClient, type SendOptions } from '../../suites/http.js';
import { DEFAULT_TIMEOUT_MS } from '../../suites/settings.js';
import { configFileOf } from '../config-file.js';
import { UsageError } from '../io.js';
import { defineCommand } from '../options.js';

/** What makes each event fire on the reference sandbox (its documented amounts and outcomes). */
const HOW: Record<WebhookEventName, string> = {
  'payment.success': 'Create Order, then the hosted checkout paid',
  'payment.failed': 'Create Order, then the hosted checkout failed',
  'payment.processing': 'Create Order, then the hosted checkout pending (it settles to PAID later: payment.success follows)',
  'payment.expired': 'Create Order, then the hosted checkout session expired',
  'payout.success': 'Transaction Initiation of 10.00, then settled to SUCCESS (payout.processing comes first)',
  'payout.failed': 'Transaction Initiation of 10.13, which the beneficiary bank rejects',
  'payout.processing': 'Transaction Initiation of 10.00 (it settles later: payout.success follows)',
  'payout.reversed': 'Transaction Initiation of 10.00, settled to SUCCESS, then REVERSED (payout.processing and payout.success come first)',
};

export const triggerCommand = defineCommand({
  name: 'trigger',
  summary: 'Makes the change that fires a webhook EVENT on a running reference sandbox (serve), and prints the order or payout id.',
  usage: 'svc-conformance trigger EVENT [--config F] [--to URL]',
  positionals: true,
  options: [
    {
      name: 'to',
      value: 'URL',
      description:
        'deliver this event to URL (a loopback receiver unless serve --allow-remote-webhooks): registered while trigger runs, the earlier registration put back after',
    },
    {
      name: 'config',
      short: 'c',
      value: 'F',
      description:
        "the sandbox's P-CFG config (serve --config-out writes one; default: ./svc-conformance.json if there is one); SVC_BASE_URL, SVC_API_KEY, SVC_SECRET_KEY and SVC_WALLET_ID override it",
    },
  ],
  details: [
    'Events:',
    ...WEBHOOK_EVENT_NAMES.map((name) => `  ${name.padEnd(20)}${HOW[name]}`),
    '',
    'The sandbox delivers to the URL given by serve --webhook-url (or registered with POST /sandbox/webhooks)',
    'and logs each attempt on its console. trigger only drives the reference sandbox: it uses its control requests.',
  ],
  examples: [
    'svc-conformance serve --port 4010 --config-out sandbox.json --webhook-url http://127.0.0.1:4020/webhooks',
    'svc-conformance trigger payout.failed --config sandbox.json',
  ],
  async run(options, io, positionals) {
    const [event, extra] = positionals;
    if (event === undefined) throw new UsageError(`trigger: name an EVENT: ${WEBHOOK_EVENT_NAMES.join(', ')}`);
    if (extra !== undefined) throw new UsageError(`trigger: one EVENT at a time, not "${extra}" too`);
    if (!isWebhookEventName(event)) throw new UsageError(`trigger: no event "${event}"; the events are ${WEBHOOK_EVENT_NAMES.join(', ')}`);
    const configFile = configFileOf('trigger', options, io);
    if (configFile === undefined && io.env.SVC_BASE_URL === undefined) {
      throw new UsageError(
        'trigger: name the sandbox with --config F (serve --config-out F writes one; ./svc-conformance.json is found by itself) or SVC_BASE_URL with SVC_API_KEY, SVC_SECRET_KEY and SVC_WALLET_ID',
      );
    }
    const config: TargetConfig = await loadConfig(configFile, io.env, io.cwd);
    const client = new TargetClient(config);
    // What trigger says names URLs (the sandbox's, --to, the registered one) and echoes the sandbox's
    // messages: each line passes through the run's redactor, as run's do (userinfo, the secret in any form).
    const redact = client.redact;
    try {
      const to = options.to !== undefined ? receiverUrl(options.to) : undefined;
      const earlier = await registration(client, config.baseUrl);
      if (to !== undefined) await register(client, config.baseUrl, to);
      const registered = to ?? earlier;
      // The sandbox takes the URL when the event fires, retries included: the earlier one can come back at once.
      const result = await fire(client, config, event).finally(() =>
        to !== undefined && to !== earlier ? register(client, config.baseUrl, earlier ?? null) : undefined,
      );
      io.stdout(
        redact(
          `${event}: ${result.kind} ${result.id} (${result.state}); ${registered !== undefined ? `the sandbox delivers ${event} to ${registered}` : 'no webhook URL is registered, so nothing is delivered'}\n`,
        ),
      );
      if (registered === undefined) {
        io.stderr(
          redact(
            `trigger: no webhook URL is registered for merchant ${config.merchant.apiKey.slice(0, 8)}…, so nothing is delivered; give --to URL (or start serve with --webhook-url URL)\n`,
          ),
        );
      }
      return 0;
    } catch (error) {
      if (error instanceof UsageError) throw new UsageError(redact(error.message));
      throw error;
    } finally {
      await client.close();
    }
  },
});

/** A 401 is tried twice more with another timestamp: two triggers' same query within a second is refused as a
 * replay (P-AUTH); wrong keys stay 401. */
async function send(client: TargetClient, options: SendOptions): Promise<Exchange> {
  let exchange = await client.send(options);
  for (let tries = 0; tries < 2 && exchange.response?.status === 401; tries++) {
    exchange = await client.send({ ...options, timestamp: client.nowSeconds() - 1 - Math.floor(Math.random() * 200) });
  }
  return exchange;
}

/** Sends one of the interface's operations to the sandbox, labelled with the operation's name. */
const operation = (client: TargetClient, key: keyof typeof OPERATIONS, payload: unknown) =>
  send(client, { label: OPERATIONS[key].name, path: OPERATION_PATHS[key], payload });

/** A refusal that says the target is not (or not a working) reference sandbox: exit 2. */
function notASandbox(baseUrl: string, what: string, exchange: Exchange): UsageError {
  const answer =
    exchange.error !== undefined
      ? `got no answer (${exchange.error.message.replace(/\s+/g, ' ')})`
      : `answered HTTP ${exchange.response.status}${messageOf(exchange) ? ` "${messageOf(exchange)}"` : ''}`;
  return new UsageError(
    `trigger: ${what} at ${baseUrl} ${answer}; trigger drives the reference sandbox (svc-conformance serve) with the configured merchant's keys`,
  );
}

function messageOf(exchange: Exchange): string | undefined {
  const message = (exchange.response?.json as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message.slice(0, 200) : undefined;
}

/** The record of a success answer: `data`, or Create Order's `return_data`. */
function dataOf(exchange: Exchange): Record<string, unknown> | undefined {
  if (exchange.response === undefined || exchange.response.status < 200 || exchange.response.status > 299) return undefined;
  const json = exchange.response.json as { data?: unknown; return_data?: unknown } | undefined;
  const data = json?.data ?? json?.return_data;
  return isJsonObject(data) ? data : undefined;
}

const REGISTRATION = `the webhook registration control request (POST ${OPERATION_PATHS.registerWebhook})`;

/** The merchant's registered webhook URL (undefined: none); refuses a target without the control request. */
async function registration(client: TargetClient, baseUrl: string): Promise<string | undefined> {
  const exchange = await send(client, { label: 'the registered webhook URL', path: OPERATION_PATHS.registerWebhook, payload: {} });
  const data = dataOf(exchange);
  if (data === undefined || !('url' in data)) throw notASandbox(baseUrl, REGISTRATION, exchange);
  return typeof data.url === 'string' ? data.url : undefined;
}

/** --to as given: an http(s) URL, or one clear line. */
function receiverUrl(text: string): string {
  // Not echoed: a value that is not a URL may be anything pasted by mistake (a secret, say).
  if (!URL.canParse(text))
    throw new UsageError(`trigger: --to takes the receiver's URL, e.g. http://127.0.0.1:4020/webhooks; what was given is not a URL`);
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`trigger: --to takes an http(s) URL, not ${url.protocol}`);
  return url.href;
}

/** Registers the merchant's webhook URL (null: none) with the sandbox's control request; its refusal is said as it gave it. */
async function register(client: TargetClient, baseUrl: string, url: string | null): Promise<void> {
  const exchange = await send(client, { label: 'register the webhook URL', path: OPERATION_PATHS.registerWebhook, payload: { url } });
  if (exchange.response?.status === 400 || exchange.response?.status === 403)
    throw new UsageError(
      `trigger: the sandbox refused the webhook URL ${url}: ${messageOf(exchange) ?? `HTTP ${exchange.response.status}`}`,
    );
  if (dataOf(exchange) === undefined) throw notASandbox(baseUrl, REGISTRATION, exchange);
}

interface Fired {
  kind: 'order_id' | 'payout_order_id';
  id: string;
  state: string;
}

/** The hosted checkout's outcome that fires each payment event, and the order's state after it. */
const CHECKOUT = {
  'payment.success': ['success', 'PAID'],
  'payment.failed': ['failure', 'FAILED'],
  'payment.processing': ['pending', 'PROCESSING'],
  'payment.expired': ['expire', 'EXPIRED'],
} as const;

async function fire(client: TargetClient, config: TargetConfig, event: WebhookEventName): Promise<Fired> {
  const suffix = `${Date.now().toString(36).toUpperCase()}-${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
  if (event.startsWith('payment.')) {
    const orderId = `TRG-${suffix}`;
    const created = await operation(client, 'createOrder', orderBody(orderId, 'svc-conformance trigger'));
    const link = dataOf(created)?.payment_link;
    if (typeof link !== 'string') throw notASandbox(config.baseUrl, 'Create Order', created);
    const [outcome, state] = CHECKOUT[event as keyof typeof CHECKOUT];
    await checkout(link, config.baseUrl, outcome);
    return { kind: 'order_id', id: orderId, state };
  }
  const payoutOrderId = `TRG-PO-${suffix}`;
  const balance = await operation(client, 'balanceInquiry', { svc_wallet_id: config.merchant.walletId, debit_account_type: 'svc_wallet' });
  const currency = dataOf(balance)?.currency;
  if (!isCurrency(currency)) throw notASandbox(config.baseUrl, 'Balance Inquiry', balance);
  const amount = event === 'payout.failed' ? '10.13' : '10.00';
  const initiated = await operation(client, 'transactionInitiation', payoutBody(config.merchant.walletId, payoutOrderId, amount, currency));
  let state = dataOf(initiated)?.status;
  if (typeof state !== 'string') throw notASandbox(config.baseUrl, 'Transaction Initiation', initiated);
  const targets = { 'payout.success': ['SUCCESS'], 'payout.reversed': ['SUCCESS', 'REVERSED'] }[event as 'payout.success'] ?? [];
  for (const target of targets) {
    const settled = await send(client, {
      label: `settle to ${target}`,
      path: OPERATION_PATHS.settlePayout,
      payload: { payout_order_id: payoutOrderId, status: target },
    });
    state = dataOf(settled)?.status;
    if (typeof state !== 'string')
      throw notASandbox(config.baseUrl, `the settle control request (POST ${OPERATION_PATHS.settlePayout})`, settled);
  }
  return { kind: 'payout_order_id', id: payoutOrderId, state };
}

/** Submits the hosted checkout's form, as the customer's browser would. */
async function checkout(link: string, baseUrl: string, outcome: string): Promise<void> {
  // Only the sandbox's own page: a payment_link elsewhere is not followed.
  if (new URL(link).origin !== new URL(baseUrl).origin)
    throw new UsageError(
      `trigger: the payment_link ${new URL(link).origin} is not on ${new URL(baseUrl).origin}; trigger only follows the reference sandbox's own checkout`,
    );
  const response = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ method: 'upi', outcome }).toString(),
    signal: AbortSignal.timeout(DEFAULT_TIMEOUT_MS),
  }).catch((error: Error) => {
    throw new UsageError(`trigger: the hosted checkout at ${new URL(link).origin} did not answer: ${error.message}`);
  });
  await response.body?.cancel();
  if (response.status !== 200)
    throw new UsageError(
      `trigger: the hosted checkout answered HTTP ${response.status}; trigger drives the reference sandbox (svc-conformance serve)`,
    );
}

function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}
