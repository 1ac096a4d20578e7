// The in-process client harness: what the client under test sends to the base URL (fetch or node:http, through
// nock, loaded at first install) is answered by the sandbox app and judged as verify-client judges, every request.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type nockModule from 'nock';
import { systemClock, type Clock } from '../core/clock.js';
import type { CheckResult, Report } from '../core/report.js';
import type { SandboxApp } from '../sandbox/context.js';
import { createSandbox, type ScenarioName } from '../sandbox/index.js';
import { answerWire } from '../sandbox/wire.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { MERCHANT_A, MERCHANT_A_LIVE } from '../sandbox/tenants.js';
import { clientCatalog, judgeClient, judgementReport } from './judge.js';

type Nock = typeof nockModule;
type NockRequest = nockModule.ReplyFnContext['req'];

// Loopback's discard port: nothing listens there, so a client that slips past the interception
// (one using the undici package directly) is refused on this machine instead of reaching a resolver.
export const DEFAULT_HARNESS_BASE_URL = 'http://127.0.0.1:9';

export interface ClientHarnessOptions {
  /** Where the client is pointed; an origin only (no path). Default: loopback's discard port, http://127.0.0.1:9. */
  baseUrl?: string;
  /** Make the sandbox misbehave once each, to see the client recover (as `verify-client --scenario`). */
  scenarios?: readonly ScenarioName[];
  /** Seconds `create-order-hang-once` holds its answer (default 30). */
  hangSeconds?: number;
  /** Refuse requests to every other host while installed (nock.disableNetConnect); restore() allows them again. */
  blockOtherHosts?: boolean;
  /** The sandbox's clock (its time, its held answers) and the report's; default the system's. */
  clock?: Clock;
}

export interface ClientHarnessEnv {
  SVC_BASE_URL: string;
  SVC_API_KEY: string;
  SVC_SECRET_KEY: string;
  SVC_WALLET_ID: string;
  SVC_ENVIRONMENT: 'sandbox';
}

export interface ClientHarness {
  readonly baseUrl: string;
  /** The variables verify-client sets for a client command: pass them to the client's configuration. */
  readonly env: Readonly<ClientHarnessEnv>;
  /** Merchant A's demo credentials, which the sandbox knows. */
  readonly credentials: Readonly<{ apiKey: string; secretKey: string; walletId: string }>;
  /** Every request answered so far, in the order received, unredacted. */
  requests(): readonly RecordedExchange[];
  /** The P-CLIENT rules the recorded traffic broke (failed results only, any level). */
  findings(): CheckResult[];
  /** The report verify-client would write for this traffic (report.json's shape). */
  report(options?: { strict?: boolean }): Report;
  /** Throws ClientConformanceError when a MUST rule is broken (with strict, a SHOULD rule too), or nothing was sent. */
  assertConformant(options?: { strict?: boolean }): void;
  /** Removes this harness's interceptors (no one else's), releases held answers and closes the sandbox. */
  restore(): Promise<void>;
}

/** The client broke P-CLIENT rules; `findings` holds the failed results, `report` the whole judgement. */
export class ClientConformanceError extends Error {
  override readonly name = 'ClientConformanceError';
  readonly code = 'SVC_CLIENT_NOT_CONFORMANT';
  constructor(
    message: string,
    readonly findings: readonly CheckResult[],
    readonly report: Report,
  ) {
    super(message);
  }
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const installed = new Set<string>();
let nockInstance: Nock | undefined;

/** nock is an optional peer dependency: only the in-process harness needs it. */
export const NOCK_MISSING =
  'installClientHarness needs nock (an optional peer dependency of svc-conformance): npm install --save-dev nock@^14';

/** nock itself, or an error that says how to install it (typed unknown: the published types need no nock). */
export function requireNock(require: (id: string) => unknown = createRequire(import.meta.url)): unknown {
  try {
    return require('nock');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') throw new Error(NOCK_MISSING);
    throw error;
  }
}

function loadNock(): Nock {
  nockInstance ??= requireNock() as Nock;
  // Another test may have called nock.restore(); interception needs it active.
  if (!nockInstance.isActive()) nockInstance.activate();
  // nock patches the CommonJS module objects; a client that imports `request` by name from node:http(s)
  // sees the patch only once the ESM bindings are synced.
  syncBuiltinESMExports();
  return nockInstance;
}

/** Installs the harness: from now on every request to `baseUrl` is answered by an in-process sandbox. */
export function installClientHarness(options: ClientHarnessOptions = {}): ClientHarness {
  const baseUrl = harnessOrigin(options.baseUrl ?? DEFAULT_HARNESS_BASE_URL);
  if (installed.has(baseUrl)) {
    throw new Error(
      `installClientHarness: a harness is already installed for ${baseUrl}; await its restore() first, or give this one another baseUrl`,
    );
  }
  const clock = options.clock ?? systemClock;
  const scenarios = [...(options.scenarios ?? [])];
  const recorded: RecordedExchange[] = [];
  const app = sandboxFor(options, clock, scenarios, recorded);
  const state: HarnessState = { baseUrl, clock, scenarios, recorded, answering: new Set(), app, startedAt: new Date(clock.now()) };
  const nock = loadNock();
  const { scope, interceptors } = intercept(nock, state);
  if (options.blockOtherHosts) nock.disableNetConnect();
  installed.add(baseUrl);
  let restored: Promise<void> | undefined;

  return {
    baseUrl,
    env: Object.freeze({
      SVC_BASE_URL: baseUrl,
      SVC_API_KEY: MERCHANT_A.apiKey,
      SVC_SECRET_KEY: MERCHANT_A.secretKey,
      SVC_WALLET_ID: MERCHANT_A.walletId,
      SVC_ENVIRONMENT: 'sandbox',
    }),
    credentials: Object.freeze({ apiKey: MERCHANT_A.apiKey, secretKey: MERCHANT_A.secretKey, walletId: MERCHANT_A.walletId }),
    requests: () => [...state.recorded].sort((a, b) => a.receivedAt - b.receivedAt),
    findings: () => judged(state, 'findings').results.filter((r) => r.state === 'failed'),
    report: (opts = {}) => judgement(state, Boolean(opts.strict), 'report').report,
    assertConformant(opts = {}) {
      const { report, failed } = judgement(state, Boolean(opts.strict), 'assertConformant');
      if (report.verdict !== 'conformant') throw new ClientConformanceError(conformanceMessage(report, failed), failed, report);
    },
    restore() {
      restored ??= (async () => {
        for (const interceptor of interceptors) nock.removeInterceptor(interceptor);
        scope.removeAllListeners('request');
        if (options.blockOtherHosts) nock.enableNetConnect();
        installed.delete(baseUrl);
        await state.app.close();
        await Promise.allSettled([...state.answering]);
      })();
      return restored;
    },
  };
}

/** What one installed harness holds: its sandbox, what it recorded, and the answers still being given. */
interface HarnessState {
  baseUrl: string;
  clock: Clock;
  scenarios: ScenarioName[];
  recorded: RecordedExchange[];
  /** Answers being given, so judging can refuse to miss one and restore() can wait for them. */
  answering: Set<Promise<unknown>>;
  app: SandboxApp;
  startedAt: Date;
}

function sandboxFor(options: ClientHarnessOptions, clock: Clock, scenarios: ScenarioName[], recorded: RecordedExchange[]): SandboxApp {
  try {
    return createSandbox({
      clock,
      scenarios,
      ...(options.hangSeconds !== undefined ? { hangSeconds: options.hangSeconds } : {}),
      record: (x) => recorded.push(x),
    });
  } catch (error) {
    throw new RangeError(`installClientHarness: ${(error as Error).message.replace(/^sandbox: /, '')}`);
  }
}

/** One catch-all interceptor per method, answered by the sandbox. nock parses JSON bodies and throws
 *  on a bad one, so the raw bytes are taken on 'request' and the content type hidden from its parser. */
function intercept(nock: Nock, state: HarnessState) {
  const received = new WeakMap<NockRequest, { headers: Array<[string, string]>; bytes: Buffer }>();
  // allowUnmocked: once the interceptors are removed, the host goes to the network again, not to "no match".
  const scope = nock(state.baseUrl, { allowUnmocked: true }).persist();
  scope.on('request', (req: NockRequest, _interceptor: unknown, bodyText: string) => {
    received.set(req, { headers: headersOf(req.headers), bytes: rawBody(req, bodyText) });
    req.headers = { ...req.headers, 'content-type': 'application/octet-stream' };
  });
  async function answer(req: NockRequest, path: string): Promise<nockModule.ReplyFnResult> {
    const seen = received.get(req) ?? { headers: headersOf(req.headers), bytes: Buffer.alloc(0) };
    // The same answers as on a socket (sandbox/wire.ts): a body past the limit, a malformed request.
    const wire = { method: req.method, target: path, origin: state.baseUrl, headers: seen.headers, body: seen.bytes };
    const { response, closeAfter } = await answerWire(state.app, wire);
    const body = response.bytes();
    const headers: string[] = [];
    response.headers.forEach((value, name) => headers.push(name, value));
    if (!response.headers.has('content-length')) headers.push('content-length', String(body.length));
    if (closeAfter) headers.push('connection', 'close');
    return [response.status, body, headers];
  }
  const tracked = (reply: Promise<nockModule.ReplyFnResult>) => {
    state.answering.add(reply);
    const done = () => void state.answering.delete(reply);
    reply.then(done, done);
    return reply;
  };
  const interceptors = METHODS.map((method) => {
    const interceptor = scope.intercept(() => true, method);
    interceptor.reply(function (this: nockModule.ReplyFnContext, path: string) {
      return tracked(answer(this.req, path));
    });
    return interceptor;
  });
  return { scope, interceptors };
}

function judged(state: HarnessState, caller: string) {
  const waiting = state.answering.size;
  if (waiting > 0) {
    throw new Error(
      `harness.${caller}(): ${waiting} request${waiting > 1 ? 's are' : ' is'} still waiting for an answer (a scenario holding it?); await harness.restore() first, which releases held answers`,
    );
  }
  return judgeClient({
    exchanges: state.recorded,
    baseUrl: state.baseUrl,
    merchant: MERCHANT_A,
    otherEnvironment: { apiKeys: [MERCHANT_A_LIVE.apiKey], walletIds: [MERCHANT_A_LIVE.walletId] },
    toleranceSeconds: state.app.options.variant.toleranceSeconds,
  });
}

/** The judgement verify-client would write for this traffic, and the failed results behind it. */
function judgement(state: HarnessState, strict: boolean, caller: string): { report: Report; failed: CheckResult[] } {
  const { results, apiRequests } = judged(state, caller);
  const { baseUrl, scenarios, startedAt } = state;
  const built = judgementReport(
    {
      results,
      catalog: clientCatalog(),
      target: { baseUrl, environment: 'sandbox', embeddedSandbox: true },
      strict,
      startedAt,
      rerunCommand: `re-run the test that called installClientHarness(${scenarios.length ? `{ scenarios: ${JSON.stringify(scenarios)} }` : ''})`,
    },
    state.clock.now(),
  );
  // A client that sent nothing of its own fails CLIENT-SENDS-REQUESTS; the hint says where to point it.
  const report: Report = {
    ...built,
    client: { command: 'in-process (installClientHarness)', exitCode: null, requests: apiRequests, scenarios },
    ...(apiRequests === 0
      ? { hints: [`the client sent no request to ${baseUrl}; point it at harness.baseUrl (harness.env.SVC_BASE_URL)`] }
      : {}),
  };
  return { report, failed: results.filter((r) => r.state === 'failed') };
}

/** The base URL as an origin; anything with a path, query or another scheme is refused. */
function harnessOrigin(text: string): string {
  if (!URL.canParse(text))
    throw new RangeError(
      `installClientHarness: baseUrl ${JSON.stringify(text)} is not a URL; give an origin such as ${DEFAULT_HARNESS_BASE_URL}`,
    );
  const url = new URL(text);
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== ''
  ) {
    throw new RangeError(
      `installClientHarness: baseUrl must be an http(s) origin with no path or query, such as ${DEFAULT_HARNESS_BASE_URL}; got ${JSON.stringify(text)}`,
    );
  }
  return url.origin;
}

/** The headers as sent, in pairs: turned into Headers by the sandbox's wire layer, which answers a malformed one. */
function headersOf(raw: Record<string, string | string[] | number | undefined>): Array<[string, string]> {
  return Object.entries(raw).flatMap(
    ([name, value]): Array<[string, string]> =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : String(value)]],
  );
}

/** The exact bytes sent. nock keeps the written chunks on the request (an internal field, so it is
 *  checked); the event's text is the fallback, exact for a UTF-8 body (nock gives other bodies as hex). */
function rawBody(req: NockRequest, bodyText: string): Buffer {
  const chunks = (req as unknown as { requestBodyBuffers?: unknown }).requestBodyBuffers;
  if (Array.isArray(chunks) && chunks.every((c) => Buffer.isBuffer(c))) return Buffer.concat(chunks);
  return Buffer.from(bodyText, 'utf8');
}

function conformanceMessage(report: Report, failed: readonly CheckResult[]): string {
  const levels = new Map(report.requirements.map((r) => [r.id, r.level]));
  const counted = (level: string | undefined) => level === 'MUST' || (report.strict && level === 'SHOULD');
  const lines = failed.map((r) => {
    const level = levels.get(r.meta.requirement) ?? 'MUST';
    const note = counted(level) ? '' : level === 'SHOULD' ? ' (a warning; fails only with strict)' : ' (does not fail the test)';
    return `  ${r.meta.requirement} ${level}: ${(r.meta.failure?.message ?? r.meta.title).replaceAll('\n', ' ')}${note}`;
  });
  const head =
    report.hints?.[0] !== undefined
      ? `the client is not conformant: ${report.hints[0]}`
      : `the client is not conformant (P-CLIENT): ${failed.filter((r) => counted(levels.get(r.meta.requirement))).length} rule(s) broken in ${report.client?.requests ?? 0} request(s) to ${report.target.baseUrl}`;
  return [head, ...lines, 'harness.report() holds the evidence: each offending request and answer, secrets redacted.'].join('\n');
}
