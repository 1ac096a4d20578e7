import { readPackageJson } from '../common/package-root.js';
import type { CheckResult, Report, Requirement } from '../core/report.js';
import { buildReport, type BuildInput } from '../core/verdict.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { requirementsIn } from '../suites/catalog.js';
import { createRedactor } from '../common/redact.js';
import * as each from './rules.js';
import type { JudgeContext, RuleOutcome } from './rules.js';
import * as across from './sequence-rules.js';
import { foreignNote, ownTraffic } from './own-traffic.js';
import { resultOf } from './result.js';
import { asEvidence, classify, type ClientRequest } from './traffic.js';

/** The client requirement catalog (clients/catalog.json), judged from recorded traffic (P-CLIENT). */
export function clientCatalog(): Requirement[] {
  return requirementsIn('clients/catalog.json');
}

/** The report of a judgement from recorded traffic, which has no seed and no property cases; `now` ends it. */
export function judgementReport(input: Omit<BuildInput, 'seed' | 'runNumber' | 'runs' | 'durationMs' | 'version'>, now: number): Report {
  const version = readPackageJson<{ version: string }>('package.json').version;
  return buildReport({ ...input, seed: 0, runNumber: 0, runs: 0, durationMs: now - input.startedAt.getTime(), version });
}

/** Judged apart from the rules: whether there is anything of the client's to judge at all. */
const SENDS_REQUESTS = 'CLIENT-SENDS-REQUESTS';

const RULES: ReadonlyArray<[string, (ctx: JudgeContext) => RuleOutcome]> = [
  ['CLIENT-HEADERS', each.headers],
  ['CLIENT-OPERATION', each.operation],
  ['CLIENT-SIGNATURE', each.signature],
  ['CLIENT-CANONICAL-BODY', each.canonicalBody],
  ['CLIENT-TIMESTAMP-SECONDS', each.timestampSeconds],
  ['CLIENT-TIMESTAMP-WINDOW', each.timestampWindow],
  ['CLIENT-NO-REUSE', each.noReuse],
  ['CLIENT-NO-SECRET', each.noSecret],
  ['CLIENT-ENVIRONMENT', each.environment],
  ['CLIENT-REQUEST-SCHEMA', each.requestSchema],
  ['CLIENT-FRESH-ORDER-ID', across.freshOrderId],
  ['CLIENT-FRESH-PAYOUT-ID', across.freshPayoutId],
  ['CLIENT-RETRY-AFTER-STATUS', across.retryAfterStatus],
  ['CLIENT-BACKOFF-429', across.backoff429],
  ['CLIENT-VERIFY-PAYOUT', across.verifyPayout],
  ['CLIENT-VERIFY-ORDER', across.verifyOrder],
  ['CLIENT-BALANCE-FIRST', across.balanceFirst],
];

/** The rules one request shows on its own (the others need what came before or after it). */
const PER_REQUEST_RULES = RULES.filter(([, rule]) => Object.values(each).includes(rule));

interface JudgeInput {
  exchanges: readonly RecordedExchange[];
  /** Where the client was pointed, for the evidence's URLs. */
  baseUrl: string;
  /** Without the secret (traffic judged without a config) the rules that need it are skipped. */
  merchant: { apiKey: string; secretKey?: string };
  otherEnvironment: { apiKeys: readonly string[]; walletIds: readonly string[] };
  toleranceSeconds: number;
  /** 'own' (verify-client): only requests with the run merchant's key or secret (own-traffic.ts), the rest
   * counted, never judged; 'all' (default, the in-process harness nothing else can reach): every request. */
  judge?: 'own' | 'all';
  /** Who answered, as explanations name it (default: the kit's sandbox, which verifies the raw bytes). */
  server?: string;
}

interface ClientJudgement {
  /** One result per client requirement. */
  results: CheckResult[];
  /** The client's API requests (its checkout pages aside). */
  apiRequests: number;
  /** Every request of the client, classified. */
  requests: ClientRequest[];
  /** Requests that were not the client's: counted, not judged. */
  foreignRequests: number;
  /** What the report says that is no verdict (the foreign requests). */
  notes: string[];
}

/** What the rules read: the client's own requests, classified, and the input's facts. */
function contextOf(input: JudgeInput): { ctx: JudgeContext; foreign: readonly RecordedExchange[] } {
  const { apiKey, secretKey } = input.merchant;
  const { own, foreign } =
    input.judge === 'own' && secretKey !== undefined
      ? ownTraffic(input.exchanges, { apiKey, secretKey })
      : { own: input.exchanges, foreign: [] };
  // Everything the sandbox handled tells when the client's requests can have arrived (traffic.ts).
  const requests = classify(own, input.exchanges);
  const ctx: JudgeContext = {
    requests,
    api: requests.filter((r) => !r.sandboxPage),
    secretKey,
    otherEnvironmentKeys: input.otherEnvironment.apiKeys,
    otherEnvironmentWallets: input.otherEnvironment.walletIds,
    toleranceSeconds: input.toleranceSeconds,
    server: input.server ?? 'the sandbox, which verifies the raw bytes,',
  };
  return { ctx, foreign };
}

/** The per-request rules these requests break, without evidence: a proxy's line as each exchange happens. */
export function brokenOnItsOwn(input: JudgeInput): string[] {
  const { ctx } = contextOf(input);
  return ctx.api.length === 0 ? [] : PER_REQUEST_RULES.filter(([, rule]) => rule(ctx).status === 'failed').map(([id]) => id);
}

/** Judges a client by the requests it sent (P-CLIENT-1…8). */
export function judgeClient(input: JudgeInput): ClientJudgement {
  const { ctx, foreign } = contextOf(input);
  const { requests } = ctx;
  const redact = createRedactor({ secrets: [input.merchant.secretKey] });
  const titles = new Map(clientCatalog().map((r) => [r.id, r.title]));
  const result = (id: string, outcome: RuleOutcome) =>
    resultOf({ id, title: titles.get(id) ?? id }, outcome, (r) => asEvidence(r, input.baseUrl, redact, input.merchant.secretKey));
  const sent = result(
    SENDS_REQUESTS,
    ctx.api.length > 0
      ? { status: 'passed' }
      : { status: 'failed', message: 'the client sent no request of its own to SVC_BASE_URL', offending: [] },
  );
  const results = RULES.map(([id, rule]) =>
    result(id, ctx.api.length === 0 ? { status: 'skipped', reason: 'the client sent no request' } : rule(ctx)),
  );
  const note = foreignNote(foreign);
  return {
    results: [sent, ...results],
    apiRequests: ctx.api.length,
    requests,
    foreignRequests: foreign.length,
    notes: note === undefined ? [] : [note],
  };
}
