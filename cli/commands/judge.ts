import { brokenOnItsOwn, clientCatalog, judgeClient, judgementReport } from '../../clients/judge.js';
import { harEntries, harTraffic, type ObservedExchange } from '../../clients/har-input.js';
import { resultOf } from '../../clients/result.js';
import { judgeServerTraffic, type ServerTrafficInput } from '../../clients/server-traffic.js';
import { asEvidence, classify } from '../../clients/traffic.js';
import type { CheckResult, Verdict } from '../../core/report.js';
import { DEFAULT_TOLERANCE_SECONDS } from '../../signer/verify.js';
import { catalog } from '../../suites/catalog.js';
import { envNamesTarget, loadConfig, toleranceOf, type TargetConfig } from '../../suites/config.js';
import { redactor } from '../../suites/redact.js';
import { configFileOf } from '../config-file.js';
import { readText, UsageError } from '../io.js';
import { defineCommand } from '../options.js';
import { Reporting, reportOptions } from '../reporting.js';

const WORSE: readonly Verdict[] = ['conformant', 'inconclusive', 'not-conformant'];

export const judgeCommand = defineCommand({
  name: 'judge',
  summary:
    'Judges recorded traffic (HAR 1.2) between a client and a server: the client by P-CLIENT, the server by what the exchanges show.',
  usage: 'svc-conformance judge --har FILE [--config F] [--report-dir D] [--strict] [--require-all] [--sign-key FILE]',
  options: [
    { name: 'har', value: 'FILE', description: "the recorded traffic: a browser's HAR export, run --har's, or a proxy's" },
    {
      name: 'config',
      value: 'F',
      description: "the target's config (P-CFG): its base URL says which exchanges are the API's, its secret verifies signatures",
    },
    ...reportOptions('judge'),
  ],
  details: [
    'Without a config (or SVC_BASE_URL and SVC_SECRET_KEY) the API is found by its paths and no signature is verified: those rules are not judged.',
    'Traffic judges only what it exercised: each side reports its own verdict and coverage (report.json sides), and the verdict is the worse of the two.',
    'Exit status: 0 no MUST broken on either side, 1 otherwise, 2 bad usage or nothing judged (inconclusive).',
  ],
  examples: ['svc-conformance judge --har checkout.har --config staging.json'],
  async run(options, io) {
    if (options.har === undefined) throw new UsageError('judge: give the recorded traffic: judge --har FILE');
    const reporting = new Reporting('judge', options, io);
    const entries = harEntries(await readText(io, 'judge', '--har', options.har));
    if (typeof entries === 'string') throw new UsageError(`judge: ${options.har} ${entries}; give a HAR 1.2 file (log.entries)`);
    const configFile = configFileOf('judge', options, io);
    const config = configFile !== undefined || envNamesTarget(io.env) ? await loadConfig(configFile, io.env, io.cwd) : undefined;
    await reporting.prepare();
    const startedAt = new Date();
    const traffic = harTraffic(entries, config?.baseUrl);
    const baseUrl = traffic.baseUrl ?? 'http://unknown.invalid';
    const notes = [
      ...(traffic.notRecorded > 0
        ? [`${traffic.notRecorded} exchange(s) to the API whose bodies the file did not keep were not judged`]
        : []),
      ...(traffic.elsewhere > 0 ? [`${traffic.elsewhere} exchange(s) not to the API (${baseUrl}) were not judged`] : []),
      `traffic judges only what it exercised: ${traffic.exchanges.length} exchange(s) of ${options.har}`,
    ];
    const rerunCommand = `svc-conformance judge --har ${options.har}${configFile !== undefined ? ` --config ${configFile}` : ''}`;
    const given = { exchanges: traffic.exchanges, baseUrl, config, notes, startedAt, rerunCommand, options: { har: options.har } };
    return reportTraffic(reporting, given, true);
  },
});

interface Traffic {
  exchanges: readonly ObservedExchange[];
  /** The API's base URL, for the evidence's URLs. */
  baseUrl: string;
  config: TargetConfig | undefined;
  notes: string[];
  startedAt: Date;
  rerunCommand: string;
  options: Record<string, unknown>;
}

/** Judges both sides of the traffic and feeds the report to every form (P-TRAFFIC-4); `printLines`: one line per exchange first. */
export async function reportTraffic(reporting: Reporting, t: Traffic, printLines: boolean): Promise<0 | 1 | 2> {
  const judged = judgeBothSides(t.exchanges, t.baseUrl, t.config);
  if (printLines) for (const line of judged.lines) reporting.io.stdout(`${line}\n`);
  const target = { baseUrl: t.baseUrl, environment: t.config?.environment ?? 'sandbox', embeddedSandbox: false } as const;
  const side = (results: CheckResult[], sideCatalog: ReturnType<typeof catalog>, couldNotJudge: string[] = []) => {
    const r = judgementReport(
      { results, catalog: sideCatalog, target, startedAt: t.startedAt, strict: reporting.options.strict, couldNotJudge },
      Date.now(),
    );
    const nothing = r.coverage.judged === 0;
    return {
      verdict: nothing ? 'inconclusive' : r.verdict,
      coverage: r.coverage,
      reasons: nothing ? ['the traffic exercised none of its rules'] : (r.reasons ?? []),
    };
  };
  // Every server requirement has a result: one no traffic rule judges says so, rather than "left out by the options".
  const ruled = new Set(judged.server.map((r) => r.meta.requirement));
  for (const q of catalog().filter((r) => !ruled.has(r.id)))
    judged.server.push(skipped(q, 'not judged from traffic: run sends what judges it'));
  const { reasons: clientReasons, ...client } = side(judged.client, clientCatalog());
  const { reasons: serverReasons, ...server } = side(judged.server, catalog(), judged.couldNotJudge);
  const { reasons: _, ...report } = reporting.judgement({
    results: [...judged.client, ...judged.server],
    catalog: [...clientCatalog(), ...catalog()],
    target,
    startedAt: t.startedAt,
    rerunCommand: t.rerunCommand,
    notes: [...judged.notes, ...t.notes],
    catalogs: ['clients/catalog.json', 'suites/catalog.json'],
    options: t.options,
  });
  const verdict = WORSE[Math.max(WORSE.indexOf(client.verdict), WORSE.indexOf(server.verdict))]!;
  const reasons = [...clientReasons.map((r) => `client: ${r}`), ...serverReasons.map((r) => `server: ${r}`)];
  return reporting.end({
    ...report,
    verdict,
    ...(verdict === 'inconclusive' ? { reasons } : {}),
    sides: { client, server },
  });
}

/** A requirement's result when the traffic does not judge it, and why. */
const skipped = (requirement: { id: string; title: string }, reason: string) =>
  resultOf(requirement, { status: 'skipped', reason }, () => ({}) as never);

/** What the judges of either side are given from the config, or without one. */
function clientInput(exchanges: readonly ObservedExchange[], baseUrl: string, config: TargetConfig | undefined) {
  const merchant = config?.merchant;
  return {
    exchanges,
    baseUrl,
    merchant: merchant ?? { apiKey: '' },
    otherEnvironment: {
      apiKeys: [config?.otherEnvironment?.apiKey ?? []].flat(),
      walletIds: [config?.otherEnvironment?.walletId ?? []].flat(),
    },
    toleranceSeconds: config !== undefined ? toleranceOf(config) : DEFAULT_TOLERANCE_SECONDS,
    judge: merchant !== undefined ? ('own' as const) : ('all' as const),
    server: 'the server',
  };
}

/** What the server side's judge is given: the exchanges, and from the config the secret, window and wallets. */
function serverInput(exchanges: readonly ObservedExchange[], config: TargetConfig | undefined): ServerTrafficInput {
  const wallets = [config?.merchant, config?.otherMerchant].flatMap(
    (m): Array<[string, string]> => (m?.apiKey && m.walletId ? [[m.apiKey, m.walletId]] : []),
  );
  return {
    requests: classify(exchanges),
    ...(config !== undefined ? { merchant: config.merchant } : {}),
    toleranceSeconds: config !== undefined ? toleranceOf(config) : DEFAULT_TOLERANCE_SECONDS,
    wallets: Object.fromEntries(wallets),
  };
}

/** The rules one exchange breaks on its own (the proxy's line as it happens); the rest need what came around it. */
export function brokenAlone(x: ObservedExchange, baseUrl: string, config: TargetConfig | undefined): string[] {
  const server = judgeServerTraffic(serverInput([x], config));
  return [
    ...brokenOnItsOwn(clientInput([x], baseUrl, config)),
    ...server.outcomes.filter(([id, o]) => o.status === 'failed' && !/^(DUP-|AUTH-ACCEPT$)/.test(id)).map(([id]) => id),
  ];
}

/** Both sides of the exchanges judged, and one line per exchange with the rules it broke (P-TRAFFIC-5). */
export function judgeBothSides(exchanges: readonly ObservedExchange[], baseUrl: string, config: TargetConfig | undefined) {
  const merchant = config?.merchant;
  const client = judgeClient(clientInput(exchanges, baseUrl, config));
  // Observed traffic holds what a client sent, if anything: having sent nothing is no rule of its own here.
  const clientResults = client.results.map((r) =>
    r.meta.requirement === 'CLIENT-SENDS-REQUESTS' && client.apiRequests === 0
      ? skipped({ id: r.meta.requirement, title: r.meta.title }, 'no request of the client was observed')
      : r,
  );
  const server = judgeServerTraffic(serverInput(exchanges, config));
  const redact = config !== undefined ? redactor(config) : (text: string) => text;
  const titles = new Map(catalog().map((r) => [r.id, r.title]));
  const broken = new Map<unknown, string[]>();
  const serverResults = server.outcomes.map(([id, outcome]) => {
    if (outcome.status === 'failed') for (const r of outcome.offending) broken.set(r.raw, [...(broken.get(r.raw) ?? []), id]);
    return resultOf({ id, title: titles.get(id) ?? id }, outcome, (r) => asEvidence(r, baseUrl, redact, merchant?.secretKey));
  });
  const byLabel = new Map(client.requests.map((r) => [`request #${r.n}`, r.raw]));
  for (const r of clientResults.filter((x) => x.state === 'failed'))
    for (const e of r.meta.evidence) {
      const raw = byLabel.get(e.label.split(' (')[0]!);
      if (raw !== undefined) broken.set(raw, [...(broken.get(raw) ?? []), r.meta.requirement]);
    }
  const lines = exchanges.map((x) => exchangeLine(x, broken.get(x) ?? [], redact));
  return { client: clientResults, server: serverResults, couldNotJudge: server.couldNotJudge, notes: client.notes, lines };
}

/** One exchange as the console shows it: method, path, status and the rules it broke. */
export function exchangeLine(x: ObservedExchange, broke: readonly string[], redact: (text: string) => string): string {
  return `  ${x.method} ${redact(x.path)} → ${x.status || 'no answer'}${broke.length > 0 ? `  ✗ ${broke.join(', ')}` : ''}`;
}
