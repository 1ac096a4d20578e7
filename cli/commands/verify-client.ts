import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { clientCatalog, judgeClient } from '../../clients/judge.js';
import { judgeConfirmations } from '../../clients/receiver-confirms.js';
import { CONFIRMS_STATUS, judgeReceiver, receiverCatalog, type ReceiverJudgement } from '../../clients/receiver-judge.js';
import { webhookUrlProblem } from '../../core/webhooks.js';
import { visible } from '../../common/visible.js';
import type { Report } from '../../core/report.js';
import { shellQuote } from '../../core/reproduce.js';
import { DEFAULT_HANG_SECONDS, parseScenarios, startSandbox, type ScenarioName } from '../../sandbox/index.js';
import { createRedactor } from '../../common/redact.js';
import { TARGET_ENV_NAMES } from '../../suites/config.js';
import type { DeliveryAttempt, RecordedExchange } from '../../sandbox/options.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B, runMerchant, type Merchant } from '../../sandbox/tenants.js';
import { listening } from './verify-receiver.js';
import { interruptsOf } from '../interrupt.js';
import { UsageError, type Io } from '../io.js';
import {
  FORMAT_OPTION,
  REQUIRE_ALL_OPTION,
  SIGN_KEY_OPTION,
  finish,
  formatOf,
  judgementReport,
  defaultReportDir,
  signerOf,
  usableReportDir,
  writeReportsOrSay,
} from '../report-files.js';
import { defineCommand, wholeNumber } from '../options.js';

export const verifyClientCommand = defineCommand({
  name: 'verify-client',
  summary: 'Runs a client against the recording sandbox and judges the requests it sends by P-CLIENT.',
  usage:
    'svc-conformance verify-client [--scenario S]… [--webhook-url URL] [--report-dir D] [--strict] [--require-all] [--sign-key FILE] [--timeout SECONDS] -- COMMAND [ARGS…]',
  positionals: true,
  options: [
    {
      name: 'scenario',
      type: 'string',
      value: 'S',
      multiple: true,
      description: 'make the sandbox misbehave once, to see the client recover (see serve --list-scenarios)',
    },
    {
      name: 'webhook-url',
      type: 'string',
      value: 'URL',
      description:
        "where the webhook receiver COMMAND starts listens: it gets the sandbox's events and the kit's probes, judged by P-HOOK-6…9",
    },
    { name: 'report-dir', type: 'string', value: 'D', description: 'where the reports go (default: svc-reports/client)' },
    FORMAT_OPTION,
    { name: 'strict', type: 'boolean', description: 'a broken SHOULD rule fails the run too' },
    REQUIRE_ALL_OPTION,
    SIGN_KEY_OPTION,
    { name: 'timeout', type: 'string', value: 'SECONDS', description: 'stop the client after this long (default 120)' },
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
    // --format json: the console lines go to stderr, and stdout gets the summary object alone.
    const { json, console: out } = formatOf('verify-client', options, io);
    const print = io.stdout;
    io = out;
    if (positionals.length === 0)
      throw new UsageError('verify-client: give the client command after --, e.g. verify-client -- node my-client.mjs');
    let scenarios: ScenarioName[];
    try {
      scenarios = [...parseScenarios(options.scenario)];
    } catch (error) {
      throw new UsageError(`verify-client: ${(error as Error).message}`);
    }
    const timeoutSeconds = options.timeout === undefined ? 120 : wholeNumber('verify-client', 'timeout', options.timeout, 1, 86_400);
    const reportDir = resolve(io.cwd, options['report-dir'] ?? defaultReportDir('verify-client'));
    const command = positionals.map(shellQuote).join(' ');
    await usableReportDir('verify-client', reportDir, io);
    const reportSigner = await signerOf('verify-client', options, io);

    const webhookUrl = options['webhook-url'];
    const urlProblem = webhookUrl === undefined ? undefined : webhookUrlProblem(webhookUrl);
    if (urlProblem !== undefined)
      throw new UsageError(`verify-client: --webhook-url cannot be used: ${urlProblem}; e.g. --webhook-url http://127.0.0.1:4020/webhooks`);

    if (
      webhookUrl !== undefined &&
      (await listening(webhookUrl, 1_000).then(
        () => true,
        () => false,
      ))
    ) {
      throw new UsageError(
        `verify-client: something already listens at ${webhookUrl} before COMMAND started; stop it, or give COMMAND and --webhook-url another port`,
      );
    }

    const recorded: RecordedExchange[] = [];
    const attempts: DeliveryAttempt[] = [];
    // Keys and a wallet that only this run's client holds: a request with any other key is not its
    // own (the demo keys are public), and no such request can use up one of its scenarios.
    const merchant = runMerchant();
    // Keep idle sockets open past a held answer, so a client's own timeout is what ends the wait.
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
    const interrupts = interruptsOf(io);
    const releaseSandbox = interrupts.hold({ done: 'closed the recording sandbox', failed: 'could not close the recording sandbox' }, () =>
      sandbox.close(),
    );
    // The client's receiver gets the events of the client's own merchant only.
    if (webhookUrl !== undefined) sandbox.app.webhooks.register(merchant.id, webhookUrl);
    const startedAt = new Date();
    let outcome: ClientOutcome;
    let receiver: ReceiverJudgement | undefined;
    try {
      io.stdout(
        `verify-client: running \`${command}\` against the recording sandbox at ${sandbox.baseUrl}${scenarios.length ? ` (scenarios: ${scenarios.join(', ')})` : ''}${webhookUrl ? `, its webhooks to ${webhookUrl}` : ''}\n`,
      );
      const client = runClient(
        positionals,
        io,
        createRedactor({ secrets: [merchant.secretKey, ...DEMO_SECRETS] }),
        {
          SVC_BASE_URL: sandbox.baseUrl,
          SVC_API_KEY: merchant.apiKey,
          SVC_SECRET_KEY: merchant.secretKey,
          SVC_WALLET_ID: merchant.walletId,
          SVC_ENVIRONMENT: 'sandbox',
        },
        timeoutSeconds,
      );
      // Interrupted: the client and all it started go (its receiver too), so its ports are free again.
      const releaseClient = interrupts.hold(
        { done: "stopped the client's process group", failed: "could not stop the client's process group" },
        () => client.terminate(),
      );
      void client.outcome.then(releaseClient, releaseClient);
      if (webhookUrl !== undefined) {
        const judged = await judgeClientReceiver(webhookUrl, merchant, client, io, Math.min(LISTEN_WITHIN_SECONDS, timeoutSeconds));
        if ('problem' in judged) {
          // Nothing to judge the receiver by: like verify-receiver with nothing at --url, a usage error.
          client.stop(judged.problem);
          await client.outcome.catch(() => {});
          throw new UsageError(`verify-client: ${judged.problem}; does COMMAND start the receiver, on the port of --webhook-url?`);
        }
        receiver = judged;
        const judgedAt = Date.now();
        const lastActivity = () => Math.max(recorded.at(-1)?.receivedAt ?? 0, attempts.at(-1)?.at ?? 0, judgedAt);
        await untilQuiet(client, () => Date.now() - lastActivity() >= QUIET_MS && !sandbox.app.webhooks.busy);
        client.stop(
          `the kit stopped the client once its receiver had been judged and ${QUIET_MS / 1000} s passed with no request and no delivery pending`,
        );
      }
      outcome = await client.outcome;
    } finally {
      releaseSandbox();
      await sandbox.close();
    }

    const { results, apiRequests, requests, foreignRequests, notes } = judgeClient({
      exchanges: recorded,
      baseUrl: sandbox.baseUrl,
      merchant,
      otherEnvironment: { apiKeys: [MERCHANT_A_LIVE.apiKey], walletIds: [MERCHANT_A_LIVE.walletId] },
      toleranceSeconds: sandbox.app.options.variant.toleranceSeconds,
      judge: 'own',
    });
    const scenarioFlags = scenarios.map((s) => `--scenario ${s} `).join('') + (webhookUrl ? `--webhook-url ${webhookUrl} ` : '');
    if (receiver !== undefined) {
      const confirms = judgeConfirmations(attempts, requests, [merchant.secretKey, ...DEMO_SECRETS]);
      results.push(...receiver.results.map((r) => (r.meta.requirement === CONFIRMS_STATUS ? confirms : r)));
    }
    const built = judgementReport({
      results,
      catalog: receiver !== undefined ? [...clientCatalog(), ...receiverCatalog()] : clientCatalog(),
      target: { baseUrl: sandbox.baseUrl, environment: 'sandbox', embeddedSandbox: true },
      strict: options.strict,
      requireAll: options['require-all'],
      startedAt,
      signer: reportSigner,
      rerunCommand: `svc-conformance verify-client ${scenarioFlags}-- ${command}`,
      notes,
      catalogs: receiver !== undefined ? ['clients/catalog.json', 'clients/receiver-catalog.json'] : ['clients/catalog.json'],
      options: { command, scenarios, webhookUrl: webhookUrl ?? null, timeoutSeconds },
    });
    if (outcome.note) io.stdout(`\nnote: ${outcome.note}\n`);
    const report: Report = {
      ...built,
      client: {
        command,
        exitCode: outcome.exitCode,
        requests: apiRequests,
        ...(foreignRequests > 0 ? { foreignRequests } : {}),
        scenarios,
      },
      ...(webhookUrl !== undefined ? { receiver: { url: webhookUrl, deliveries: (receiver?.deliveries ?? 0) + attempts.length } } : {}),
    };
    const files = await writeReportsOrSay(io, 'verify-client', report, reportDir, reportSigner);
    return finish(io, print, json, 'verify-client', report, files);
  },
});

/** The longest line of a client's output passed on; the rest of it is counted, not kept. */
const MAX_RELAYED_LINE = 16 * 1024;

/**
 * Passes a client's output on line by line, marked and redacted. Memory stays bounded whatever the
 * client prints: a line longer than MAX_RELAYED_LINE is cut, saying how much was left out.
 */
export function relayLines(
  write: (text: string) => void,
  redact: (text: string) => string,
): { data: (chunk: Buffer) => void; end: () => void } {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let dropped = 0;
  const append = (part: string) => {
    const room = MAX_RELAYED_LINE - pending.length;
    if (part.length <= room) pending += part;
    else {
      pending += part.slice(0, room);
      dropped += part.length - room;
    }
  };
  const emit = () => {
    write(`  │ ${visible(redact(pending))}${dropped > 0 ? ` … [${dropped} more characters of this line not shown]` : ''}\n`);
    pending = '';
    dropped = 0;
  };
  const take = (text: string) => {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      append(text.slice(start, newline));
      emit();
      start = newline + 1;
    }
    append(text.slice(start));
  };
  return {
    data: (chunk) => take(decoder.write(chunk)),
    end: () => {
      take(decoder.end());
      if (pending !== '' || dropped > 0) emit();
    },
  };
}

/** Resolves when a pipe has been read to its end, or after a second (a grandchild may hold it open). */
function drained(stream: NodeJS.ReadableStream & { destroy(): void; readableEnded: boolean }): Promise<void> {
  return new Promise((resolveDrain) => {
    const done = () => {
      clearTimeout(timer);
      stream.destroy();
      resolveDrain();
    };
    const timer = setTimeout(done, 1000);
    if (stream.readableEnded) done();
    else stream.once('end', done).once('close', done);
  });
}

interface ClientOutcome {
  exitCode: number | null;
  /** How the client's run ended, when not with status 0: reported, not judged. */
  note?: string;
}

/**
 * The environment without P-CFG's variables: the client's coordinates are the sandbox's alone, and a
 * deployment's secrets given to the job (SVC_OTHER_SECRET_KEY, …) are not the client's to print.
 */
function withoutTargetVariables(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const kept = { ...env };
  for (const name of TARGET_ENV_NAMES) delete kept[name];
  return kept;
}

/**
 * Runs the client with the sandbox's coordinates; its output is passed through, marked, with the
 * secret redacted. It runs in a process group of its own, so a timeout stops what it started too.
 */
function runClient(
  argv: string[],
  io: Io,
  redact: (text: string) => string,
  env: Record<string, string>,
  timeoutSeconds: number,
): RunningClient {
  let stopWith: ((note: string) => void) | undefined;
  let terminateWith: (() => Promise<void>) | undefined;
  let exited = false;
  const outcome = new Promise<ClientOutcome>((resolvePromise, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: io.cwd,
      env: { ...withoutTargetVariables(io.env), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out = relayLines(io.stdout, redact);
    const err = relayLines(io.stderr, redact);
    child.stdout.on('data', out.data);
    child.stderr.on('data', err.data);
    let timedOut = false;
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        child.kill(signal);
      }
    };
    const killGroup = () => signalGroup('SIGKILL');
    let stoppedNote: string | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutSeconds * 1000);
    stopWith = (note) => {
      if (exited) return;
      stoppedNote = note;
      killGroup();
    };
    terminateWith = async () => {
      // Asked to stop (Ctrl-C, kill): a chance to shut down cleanly, then no more chances.
      stoppedNote = 'the kit was interrupted';
      signalGroup('SIGTERM');
      const until = Date.now() + TERMINATE_GRACE_MS;
      while (groupAlive(child.pid!) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      killGroup();
      await outcome.catch(() => {});
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const reason = error.code === 'ENOENT' ? 'no such program' : error.message;
      reject(new UsageError(`verify-client: cannot start \`${argv[0]}\`: ${reason}`));
    });
    child.on('exit', (code) => {
      exited = true;
      clearTimeout(timer);
      // Whatever the client left running (a server, a sleep) goes with it; its pipes then close.
      killGroup();
      // What the client wrote just before it exited may still be in the pipes: read it to the end
      // (briefly), then pass on a last line that had no newline. A failure there fails the outcome
      // rather than vanishing in the event emitter.
      Promise.all([drained(child.stdout), drained(child.stderr)]).then(() => {
        out.end();
        err.end();
        if (stoppedNote !== undefined) resolvePromise({ exitCode: null, note: stoppedNote });
        else if (timedOut)
          resolvePromise({
            exitCode: null,
            note: `the client did not finish within ${timeoutSeconds} s and was stopped; its requests until then are judged`,
          });
        else if (code !== 0) resolvePromise({ exitCode: code, note: `the client exited with status ${code}` });
        else resolvePromise({ exitCode: 0 });
      }, reject);
    });
  });
  void outcome.catch(() => {}).finally(() => (exited = true));
  return {
    outcome,
    stop: (note) => stopWith?.(note),
    terminate: async () => terminateWith?.(),
    get exited() {
      return exited;
    },
  };
}

/** How long an interrupted client's process group has to end on SIGTERM before it gets SIGKILL. */
const TERMINATE_GRACE_MS = 2_000;

/** Whether any process of the group led by `pid` is still there. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A running client command: its outcome once it ends, and a way to end it. */
interface RunningClient {
  outcome: Promise<ClientOutcome>;
  /** Stops the client (its whole process group); the outcome then carries `note`. */
  stop(note: string): void;
  /** Stops the whole process group, SIGTERM then SIGKILL after a grace; resolves once the client has ended. */
  terminate(): Promise<void>;
  readonly exited: boolean;
}

/** The demo merchants' secrets: public, but redacted like the run's wherever a client prints them. */
const DEMO_SECRETS = [MERCHANT_A.secretKey, MERCHANT_B.secretKey, MERCHANT_A_LIVE.secretKey];

/** How long verify-client --webhook-url waits for something to listen at the URL. */
const LISTEN_WITHIN_SECONDS = 30;
/** With --webhook-url, the client is stopped after this long with no request and no delivery pending. */
const QUIET_MS = 3_000;

/**
 * Waits (bounded) until the client's receiver listens, then judges it as verify-receiver does.
 * When nothing listens in time, or the client ends first, returns why instead.
 */
async function judgeClientReceiver(
  url: string,
  merchant: Merchant,
  client: RunningClient,
  io: Io,
  withinSeconds: number,
): Promise<ReceiverJudgement | { problem: string }> {
  const until = Date.now() + withinSeconds * 1000;
  let listens = false;
  while (!listens && !client.exited && Date.now() < until) {
    listens = await listening(url, 1_000).then(
      () => true,
      () => false,
    );
    if (!listens) await new Promise((r) => setTimeout(r, 200));
  }
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

/** Resolves when the client has ended or `quiet()` holds, checking five times a second. */
async function untilQuiet(client: RunningClient, quiet: () => boolean): Promise<void> {
  while (!client.exited && !quiet()) await new Promise((r) => setTimeout(r, 200));
}
