import { clientCatalog, judgeClient } from '../../clients/judge.js';
import { judgeConfirmations } from '../../clients/receiver-confirms.js';
import { CONFIRMS_STATUS, judgeReceiver, receiverCatalog, type ReceiverJudgement } from '../../clients/receiver-judge.js';
import { createRedactor } from '../../common/redact.js';
import type { Report } from '../../core/report.js';
import { shellQuote } from '../../core/reproduce.js';
import { DEFAULT_HANG_SECONDS, parseScenarios, startSandbox, type ScenarioName } from '../../sandbox/index.js';
import type { DeliveryAttempt, RecordedExchange } from '../../sandbox/options.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B, runMerchant, type Merchant } from '../../sandbox/tenants.js';
import { runClient, type ClientOutcome, type RunningClient } from '../client-process.js';
import { interruptsOf } from '../interrupt.js';
import { asUsage, UsageError, type Io } from '../io.js';
import { defineCommand, type ParsedOptions, webhookUrlOption, wholeNumber } from '../options.js';
import { Reporting, reportOptions } from '../reporting.js';
import { listening } from './verify-receiver.js';

export const verifyClientCommand = defineCommand({
  name: 'verify-client',
  summary: 'Runs a client against the recording sandbox and judges the requests it sends by P-CLIENT.',
  usage:
    'svc-conformance verify-client [--scenario S]… [--webhook-url URL] [--report-dir D] [--strict] [--require-all] [--sign-key FILE] [--timeout SECONDS] -- COMMAND [ARGS…]',
  positionals: true,
  options: [
    {
      name: 'scenario',
      value: 'S',
      multiple: true,
      description: 'make the sandbox misbehave once, to see the client recover (see serve --list-scenarios)',
    },
    {
      name: 'webhook-url',
      value: 'URL',
      description:
        "where the webhook receiver COMMAND starts listens: it gets the sandbox's events and the kit's probes, judged by P-HOOK-6…9",
    },
    ...reportOptions('verify-client'),
    { name: 'timeout', value: 'SECONDS', description: 'stop the client after this long (default 120)' },
  ],
  details: [
    'COMMAND runs with SVC_BASE_URL, SVC_API_KEY, SVC_SECRET_KEY, SVC_WALLET_ID (and SVC_ENVIRONMENT=sandbox) set to the sandbox, with keys and a wallet made for this run.',
    "Only the client's own requests are judged (this run's API key, or signed with its secret); others that reach the sandbox are counted in a note.",
    'Exit status: 0 conformant (no MUST client rule broken), 1 not conformant (or the client sent no request of its own), 2 bad usage, COMMAND could not start, or inconclusive.',
    "Ctrl-C or SIGTERM (exit 130), a closed terminal (SIGHUP, 129) or a closed output pipe (141): one line saying what was cleaned up (the client's whole process group stopped, SIGTERM then SIGKILL after 2 s; the sandbox closed). The kit's previous reports in the report folder (recognised by their content; files of other tools are left alone) are removed when the command starts: one that ends without its own leaves none that verify.",
    "The client's own exit status is reported, not judged: a client may stop on a business failure.",
    'With --webhook-url, the sandbox delivers its events to URL; once something listens there (within 30 s) the kit delivers genuine,',
    'redelivered and forged events too (as verify-receiver), and stops COMMAND after 3 quiet seconds with no delivery pending.',
  ],
  examples: [
    'svc-conformance verify-client -- node examples/good-client.mjs',
    'svc-conformance verify-client --scenario create-order-503-once --scenario payout-failed -- python3 my_client.py',
    'svc-conformance verify-client --webhook-url http://127.0.0.1:4020/webhooks -- env PORT=4020 node examples/receivers/good-receiver.mjs',
  ],
  async run(options, io, positionals) {
    const reporting = new Reporting('verify-client', options, io);
    const out = reporting.io;
    const given = clientOptionsOf(options, positionals);
    await reporting.prepare();
    const { webhookUrl } = given;
    if (webhookUrl !== undefined && (await listensAt(webhookUrl))) {
      throw new UsageError(
        `verify-client: something already listens at ${webhookUrl} before COMMAND started; stop it, or give COMMAND and --webhook-url another port`,
      );
    }
    const recording = await startRecording(given, out);
    const startedAt = new Date();
    out.stdout(
      `verify-client: running \`${given.command}\` against the recording sandbox at ${recording.sandbox.baseUrl}${given.scenarios.length ? ` (scenarios: ${given.scenarios.join(', ')})` : ''}${webhookUrl ? `, its webhooks to ${webhookUrl}` : ''}\n`,
    );
    const run = await driveClient(given, recording, out).finally(() => recording.close());
    if (run.outcome.note) out.stdout(`\nnote: ${run.outcome.note}\n`);
    return reporting.end(clientReport(reporting, given, recording, run, startedAt));
  },
});

type ClientOptions = ParsedOptions<(typeof verifyClientCommand)['options']>;

/** What verify-client was asked: the client's command, the sandbox's scenarios, its receiver's URL and its time. */
interface ClientGiven {
  argv: string[];
  /** The command as a shell would read it. */
  command: string;
  scenarios: ScenarioName[];
  webhookUrl: string | undefined;
  timeoutSeconds: number;
}
/** The recording sandbox of a client's run, what it recorded, and the merchant only this run's client holds. */
type Recording = Awaited<ReturnType<typeof startRecording>>;
/** How the client's run ended, and what its receiver was judged by, with --webhook-url. */
type ClientRun = Awaited<ReturnType<typeof driveClient>>;

/** Whether something accepts a connection at the URL now (within a second). */
const listensAt = (url: string): Promise<boolean> =>
  listening(url, 1_000)
    .then(() => true)
    .catch(() => false);

/** The demo merchants' secrets: public, but redacted like the run's wherever a client prints them. */
const DEMO_SECRETS = [MERCHANT_A.secretKey, MERCHANT_B.secretKey, MERCHANT_A_LIVE.secretKey];
/** How long verify-client --webhook-url waits for something to listen at the URL. */
const LISTEN_WITHIN_SECONDS = 30;
/** With --webhook-url, the client is stopped after this long with no request and no delivery pending. */
const QUIET_MS = 3_000;

function clientOptionsOf(options: ClientOptions, argv: string[]): ClientGiven {
  if (argv.length === 0) throw new UsageError('verify-client: give the client command after --, e.g. verify-client -- node my-client.mjs');
  const scenarios = [...asUsage('verify-client', () => parseScenarios(options.scenario))];
  const timeoutSeconds = options.timeout === undefined ? 120 : wholeNumber('verify-client', 'timeout', options.timeout, 1, 86_400);
  const webhookUrl = options['webhook-url'];
  if (webhookUrl !== undefined) webhookUrlOption('verify-client', 'webhook-url', webhookUrl);
  return { argv, command: argv.map(shellQuote).join(' '), scenarios, webhookUrl, timeoutSeconds };
}

/** Starts the recording sandbox with keys only this run's client holds: the demo keys are public, so any other
 * key's request is not its own. */
async function startRecording({ scenarios, webhookUrl }: ClientGiven, io: Io) {
  const recorded: RecordedExchange[] = [];
  const attempts: DeliveryAttempt[] = [];
  const merchant = runMerchant();
  // Idle sockets stay open past a held answer, so a client's own timeout is what ends the wait.
  const sandbox = await startSandbox({
    port: 0,
    scenarios,
    merchants: [merchant],
    scenarioMerchant: merchant.id,
    record: (x) => recorded.push(x),
    idleTimeoutMs: (DEFAULT_HANG_SECONDS + 30) * 1000,
    requestTimeoutMs: (DEFAULT_HANG_SECONDS + 30) * 1000,
    ...(webhookUrl !== undefined
      ? {
          deliveryLog: (line: string) => io.stdout(`  [sandbox] ${line}\n`),
          onDeliveryAttempt: (a: DeliveryAttempt) => void attempts.push(a),
        }
      : {}),
  });
  const release = interruptsOf(io).hold({ done: 'closed the recording sandbox', failed: 'could not close the recording sandbox' }, () =>
    sandbox.close(),
  );
  // The client's receiver gets the events of the client's own merchant only.
  if (webhookUrl !== undefined) sandbox.app.webhooks.register(merchant.id, webhookUrl);
  return {
    sandbox,
    merchant,
    recorded,
    attempts,
    close: async () => {
      release();
      await sandbox.close();
    },
  };
}

/** Runs the client to its end; with --webhook-url, judges its receiver once it listens and stops it once all is quiet. */
async function driveClient(
  given: ClientGiven,
  recording: Recording,
  io: Io,
): Promise<{ outcome: ClientOutcome; receiver?: ReceiverJudgement }> {
  const { sandbox, merchant } = recording;
  const client = runClient(
    given.argv,
    io,
    createRedactor({ secrets: [merchant.secretKey, ...DEMO_SECRETS] }),
    {
      SVC_BASE_URL: sandbox.baseUrl,
      SVC_API_KEY: merchant.apiKey,
      SVC_SECRET_KEY: merchant.secretKey,
      SVC_WALLET_ID: merchant.walletId,
      SVC_ENVIRONMENT: 'sandbox',
    },
    given.timeoutSeconds,
  );
  // Interrupted: the client and all it started go (its receiver too), so its ports are free again.
  const releaseClient = interruptsOf(io).hold(
    { done: "stopped the client's process group", failed: "could not stop the client's process group" },
    () => client.terminate(),
  );
  void client.outcome.then(releaseClient, releaseClient);
  if (given.webhookUrl === undefined) return { outcome: await client.outcome };
  const judged = await judgeClientReceiver(given.webhookUrl, merchant, client, io, Math.min(LISTEN_WITHIN_SECONDS, given.timeoutSeconds));
  if ('problem' in judged) {
    // Nothing to judge the receiver by: like verify-receiver with nothing at --url, a usage error.
    client.stop(judged.problem);
    await client.outcome.catch(() => {});
    throw new UsageError(`verify-client: ${judged.problem}; does COMMAND start the receiver, on the port of --webhook-url?`);
  }
  const judgedAt = Date.now();
  const { recorded, attempts } = recording;
  const lastActivity = () => Math.max(recorded.at(-1)?.receivedAt ?? 0, attempts.at(-1)?.at ?? 0, judgedAt);
  await whileRunning(client, () => Date.now() - lastActivity() >= QUIET_MS && !sandbox.app.webhooks.busy);
  client.stop(
    `the kit stopped the client once its receiver had been judged and ${QUIET_MS / 1000} s passed with no request and no delivery pending`,
  );
  return { outcome: await client.outcome, receiver: judged };
}

/** The client's report: its own requests judged by P-CLIENT, and with --webhook-url its receiver by P-HOOK-6…9. */
function clientReport(reporting: Reporting, given: ClientGiven, recording: Recording, run: ClientRun, startedAt: Date): Report {
  const { sandbox, merchant, recorded, attempts } = recording;
  const { command, scenarios, webhookUrl, timeoutSeconds } = given;
  const { receiver, outcome } = run;
  const { results, apiRequests, requests, foreignRequests, notes } = judgeClient({
    exchanges: recorded,
    baseUrl: sandbox.baseUrl,
    merchant,
    otherEnvironment: { apiKeys: [MERCHANT_A_LIVE.apiKey], walletIds: [MERCHANT_A_LIVE.walletId] },
    toleranceSeconds: sandbox.app.options.variant.toleranceSeconds,
    judge: 'own',
  });
  if (receiver !== undefined) {
    const confirms = judgeConfirmations(attempts, requests, [merchant.secretKey, ...DEMO_SECRETS]);
    results.push(...receiver.results.map((r) => (r.meta.requirement === CONFIRMS_STATUS ? confirms : r)));
  }
  const scenarioFlags = scenarios.map((s) => `--scenario ${s} `).join('') + (webhookUrl ? `--webhook-url ${webhookUrl} ` : '');
  const report = reporting.judgement({
    results,
    catalog: receiver !== undefined ? [...clientCatalog(), ...receiverCatalog()] : clientCatalog(),
    target: { baseUrl: sandbox.baseUrl, environment: 'sandbox', embeddedSandbox: true },
    startedAt,
    rerunCommand: `svc-conformance verify-client ${scenarioFlags}-- ${command}`,
    notes,
    catalogs: receiver !== undefined ? ['clients/catalog.json', 'clients/receiver-catalog.json'] : ['clients/catalog.json'],
    options: { command, scenarios, webhookUrl: webhookUrl ?? null, timeoutSeconds },
  });
  return {
    ...report,
    client: { command, exitCode: outcome.exitCode, requests: apiRequests, ...(foreignRequests > 0 ? { foreignRequests } : {}), scenarios },
    ...(webhookUrl !== undefined ? { receiver: { url: webhookUrl, deliveries: (receiver?.deliveries ?? 0) + attempts.length } } : {}),
  };
}

/** Judges the client's receiver once it listens (bounded wait); otherwise returns why not. */
async function judgeClientReceiver(
  url: string,
  merchant: Merchant,
  client: RunningClient,
  io: Io,
  withinSeconds: number,
): Promise<ReceiverJudgement | { problem: string }> {
  const until = Date.now() + withinSeconds * 1000;
  let listens = false;
  await whileRunning(client, async () => Date.now() >= until || (listens = await listensAt(url)));
  if (!listens)
    return {
      problem: client.exited
        ? `the client ended before anything listened at ${url}`
        : `nothing listened at ${url} within ${withinSeconds} s of starting the client`,
    };
  io.stdout(`verify-client: the receiver listens at ${url}; delivering genuine, redelivered and forged events\n`);
  // Genuine events are signed with the run's secret, the one the client was given; a forgery with
  // demo merchant A's, which anyone can read in the README.
  return judgeReceiver({
    url,
    merchant,
    otherMerchant: MERCHANT_A,
    otherEnvironment: MERCHANT_A_LIVE,
    ...(io.clock !== undefined ? { clock: io.clock } : {}),
    onDelivery: (line) => io.stdout(`  [kit] ${line}\n`),
  });
}

/** Resolves when the client has ended or `done()` holds, asking five times a second. */
async function whileRunning(client: RunningClient, done: () => boolean | Promise<boolean>): Promise<void> {
  while (!client.exited && !(await done())) await new Promise((r) => setTimeout(r, 200));
}
