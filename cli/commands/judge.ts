import { randomBytes } from 'node:crypto';
import { clientCatalog, judgeClient, judgementReport } from '../../clients/judge.js';
import { harEntries, harTraffic } from '../../clients/har-input.js';
import { resultOf } from '../../clients/result.js';
import { judgeServerTraffic } from '../../clients/server-traffic.js';
import { asEvidence, classify } from '../../clients/traffic.js';
import type { CheckResult, Report, Verdict } from '../../core/report.js';
import { DEFAULT_TOLERANCE_SECONDS } from '../../signer/verify.js';
import { catalog } from '../../suites/catalog.js';
import { envNamesTarget, loadConfig, toleranceOf, type TargetConfig } from '../../suites/config.js';
import { redactor } from '../../suites/redact.js';
import { configFileOf } from '../config-file.js';
import { readText, UsageError } from '../io.js';
import { defineCommand } from '../options.js';
import { Reporting, reportOptions } from '../reporting.js';

/** The client rules that need the merchant's secret: without it they are not judged (P-TRAFFIC-2). */
const NEED_SECRET = ['CLIENT-SIGNATURE', 'CLIENT-NO-SECRET'];
const NO_SECRET = 'no secret to verify signatures with: give --config or SVC_SECRET_KEY';
const WORSE: Verdict[] = ['conformant', 'inconclusive', 'not-conformant'];

export const judgeCommand = defineCommand({
  name: 'judge',
  summary:
    'Judges recorded traffic (HAR 1.2) between a client and a server: the client by P-CLIENT, the server by what the exchanges show.',
  usage: 'svc-conformance judge --har FILE [--config F] [--report-dir D] [--strict] [--require-all] [--sign-key FILE]',
  options: [
    { name: 'har', type: 'string', value: 'FILE', description: "the recorded traffic: a browser's HAR export, run --har's, or a proxy's" },
    {
      name: 'config',
      type: 'string',
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
    const judged = judgeBothSides(traffic.exchanges, baseUrl, config);
    const notes = [
      ...judged.notes,
      ...(traffic.notRecorded > 0
        ? [`${traffic.notRecorded} exchange(s) to the API whose bodies the file did not keep were not judged`]
        : []),
      ...(traffic.elsewhere > 0 ? [`${traffic.elsewhere} exchange(s) not to the API (${baseUrl}) were not judged`] : []),
      `traffic judges only what it exercised: ${traffic.exchanges.length} exchange(s) of ${options.har}`,
    ];
    for (const line of judged.lines) reporting.io.stdout(`${line}\n`);
    const target = { baseUrl, environment: config?.environment ?? 'sandbox', embeddedSandbox: false } as const;
    const side = (results: CheckResult[], sideCatalog: ReturnType<typeof catalog>, couldNotJudge: string[] = []) => {
      const r = judgementReport({ results, catalog: sideCatalog, target, startedAt, strict: options.strict, couldNotJudge }, Date.now());
      const verdict: Verdict = r.coverage.judged === 0 ? 'inconclusive' : r.verdict;
      return {
        verdict,
        coverage: r.coverage,
        reasons: r.coverage.judged === 0 ? ['the traffic exercised none of its rules'] : (r.reasons ?? []),
      };
    };
    const sides = { client: side(judged.client, clientCatalog()), server: side(judged.server, catalog(), judged.couldNotJudge) };
    const report: Report = reporting.judgement({
      results: [...judged.client, ...judged.server],
      catalog: [...clientCatalog(), ...catalog()],
      target,
      startedAt,
      rerunCommand: `svc-conformance judge --har ${options.har}${configFile !== undefined ? ` --config ${configFile}` : ''}`,
      notes,
      catalogs: ['clients/catalog.json', 'suites/catalog.json'],
      options: { har: options.har },
    });
    const verdict = WORSE[Math.max(WORSE.indexOf(sides.client.verdict), WORSE.indexOf(sides.server.verdict))]!;
    const reasons = [...sides.client.reasons.map((r) => `client: ${r}`), ...sides.server.reasons.map((r) => `server: ${r}`)];
    const { reasons: _, ...rest } = report;
    return reporting.end({
      ...rest,
      verdict,
      ...(verdict === 'inconclusive' ? { reasons } : {}),
      sides: {
        client: { verdict: sides.client.verdict, coverage: sides.client.coverage },
        server: { verdict: sides.server.verdict, coverage: sides.server.coverage },
      },
    });
  },
});

/** Both sides of the exchanges judged, and one line per exchange with the rules it broke (P-TRAFFIC-5). */
function judgeBothSides(exchanges: Parameters<typeof classify>[0], baseUrl: string, config: TargetConfig | undefined) {
  const merchant = config?.merchant;
  const toleranceSeconds = config !== undefined ? toleranceOf(config) : DEFAULT_TOLERANCE_SECONDS;
  const client = judgeClient({
    exchanges,
    baseUrl,
    // Without the secret, one nobody holds: the rules that need it are set aside below.
    merchant: merchant ?? { apiKey: '', secretKey: randomBytes(32).toString('hex') },
    otherEnvironment: {
      apiKeys: [config?.otherEnvironment?.apiKey ?? []].flat(),
      walletIds: [config?.otherEnvironment?.walletId ?? []].flat(),
    },
    toleranceSeconds,
    judge: merchant !== undefined ? 'own' : 'all',
  });
  const clientResults = client.results.map((r) =>
    merchant === undefined && NEED_SECRET.includes(r.meta.requirement)
      ? resultOf({ id: r.meta.requirement, title: r.meta.title }, { status: 'skipped', reason: NO_SECRET }, () => {
          throw new Error('a skipped result shows no evidence');
        })
      : r,
  );
  const requests = classify(exchanges);
  const server = judgeServerTraffic({ requests, ...(merchant !== undefined ? { merchant } : {}), toleranceSeconds });
  const redact = config !== undefined ? redactor(config) : (text: string) => text;
  const titles = new Map(catalog().map((r) => [r.id, r.title]));
  const broken = new Map<unknown, string[]>();
  const serverResults = server.outcomes.map(([id, outcome]) => {
    if (outcome.status === 'failed') for (const r of outcome.offending) broken.set(r.raw, [...(broken.get(r.raw) ?? []), id]);
    return resultOf({ id, title: titles.get(id) ?? id }, outcome, (r) => asEvidence(r, baseUrl, redact, merchant?.secretKey ?? ''));
  });
  const byLabel = new Map(client.requests.map((r) => [`request #${r.n}`, r.raw]));
  for (const r of clientResults.filter((x) => x.state === 'failed'))
    for (const e of r.meta.evidence) {
      const raw = byLabel.get(e.label.split(' (')[0]!);
      if (raw !== undefined) broken.set(raw, [...(broken.get(raw) ?? []), r.meta.requirement]);
    }
  const lines = exchanges.map(
    (x) => `  ${x.method} ${redact(x.path)} → ${x.status || 'no answer'}${broken.has(x) ? `  ✗ ${broken.get(x)!.join(', ')}` : ''}`,
  );
  return { client: clientResults, server: serverResults, couldNotJudge: server.couldNotJudge, notes: client.notes, lines };
}
