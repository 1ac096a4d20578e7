import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { startProxy } from '../../clients/proxy.js';
import { createRedactor } from '../../common/redact.js';
import { systemClock } from '../../core/clock.js';
import { shellQuote } from '../../core/reproduce.js';
import { envNamesTarget, loadConfig, targetVariables } from '../../suites/config.js';
import { redactor } from '../../suites/redact.js';
import { runClient } from '../client-process.js';
import { configFileOf } from '../config-file.js';
import { interruptsOf } from '../interrupt.js';
import { readText, UsageError } from '../io.js';
import { defineCommand, wholeNumber } from '../options.js';
import { Reporting, reportOptions } from '../reporting.js';
import { brokenAlone, exchangeLine, reportTraffic } from './judge.js';
import type { ObservedExchange } from '../../clients/har-input.js';
import { renderHar } from '../../reports/har.js';

export const proxyCommand = defineCommand({
  name: 'proxy',
  summary: 'Forwards a real client to a real server, changing nothing, and judges both sides of the traffic (P-TRAFFIC).',
  usage:
    'svc-conformance proxy --upstream URL [--config F] [--listen HOST:PORT] [--for SECONDS] [--requests N] [--har FILE] [--report-dir D] [-- COMMAND [ARGS…]]',
  positionals: true,
  stopsOnSignal: true,
  options: [
    { name: 'upstream', value: 'URL', description: 'the server to forward to (http or https, certificates checked)' },
    { name: 'upstream-ca', value: 'FILE', description: "a private CA (PEM) the upstream's certificate may chain to" },
    { name: 'listen', value: 'HOST:PORT', description: 'where the proxy listens (default 127.0.0.1:0; the address is its first line)' },
    { name: 'config', value: 'F', description: "the merchant's config (P-CFG): its secret verifies signatures, its keys go to COMMAND" },
    { name: 'for', value: 'SECONDS', description: 'stop after this long' },
    { name: 'requests', value: 'N', description: 'stop after this many exchanges' },
    {
      name: 'har',
      value: 'FILE',
      description: 'write the traffic as HAR 1.2 (secrets redacted, signatures kept): judge --har judges it again',
    },
    ...reportOptions('proxy'),
  ],
  details: [
    'Stops on Ctrl-C or SIGTERM (a second one interrupts), after --for or --requests, or when COMMAND exits; then judges and writes the reports.',
    "COMMAND runs with SVC_BASE_URL set to the proxy and the config's SVC_* credentials.",
    'An upstream that does not answer: the client gets 502 with the error envelope, and that exchange is not judged.',
    'Exit status: 0 no MUST broken on either side, 1 otherwise, 2 bad usage or nothing judged (the upstream never reachable).',
  ],
  examples: ['svc-conformance proxy --upstream https://sandbox.gateway.example --config merchant.json -- node my-client.mjs'],
  async run(options, io, positionals) {
    const upstream = upstreamOf(options.upstream);
    const [host, port] = listenOf(options.listen);
    const stopAfter = options.for === undefined ? undefined : wholeNumber('proxy', 'for', options.for, 1, 86_400);
    const maxRequests = options.requests === undefined ? undefined : wholeNumber('proxy', 'requests', options.requests, 1, 10_000_000);
    const ca = options['upstream-ca'] === undefined ? undefined : await readText(io, 'proxy', '--upstream-ca', options['upstream-ca']);
    const configFile = configFileOf('proxy', options, io);
    const config = configFile !== undefined || envNamesTarget(io.env) ? await loadConfig(configFile, io.env, io.cwd) : undefined;
    const reporting = new Reporting('proxy', options, io);
    await reporting.prepare();
    const out = reporting.io;
    const startedAt = new Date();
    const redact = config !== undefined ? redactor(config) : (text: string) => text;
    let done: () => void = () => {};
    const ended = new Promise<void>((r) => (done = r));
    const proxy = await startProxy({
      upstream,
      ...(ca !== undefined ? { ca } : {}),
      host,
      port,
      onExchange: (x, line) => {
        out.stdout(
          `${x !== undefined ? exchangeLine(x, brokenAlone(x, upstream.href, config), redact) : `  ${line.method} ${redact(line.path)} → ${line.status}  (not judged)`}\n`,
        );
        if (maxRequests !== undefined && proxy.seen >= maxRequests) done();
      },
    }).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`proxy: cannot listen on ${host}:${port}: ${error.code ?? error.message}; give --listen another address`);
    });
    const release = interruptsOf(io).hold({ done: 'closed the proxy', failed: 'could not close the proxy' }, () => proxy.close());
    out.stdout(`proxy: listening on ${proxy.url}, forwarding to ${upstream.href}\n`);
    io.stop?.addEventListener('abort', done);
    const timer = new AbortController();
    if (stopAfter !== undefined) void (io.clock ?? systemClock).sleep(stopAfter * 1000, timer.signal).then(done);
    const client =
      positionals.length === 0
        ? undefined
        : runClient(
            positionals,
            out,
            createRedactor({ secrets: [config?.merchant.secretKey] }),
            { ...(config ? targetVariables(config) : {}), SVC_BASE_URL: proxy.url },
            86_400,
          );
    void client?.outcome.then(done, done);
    await ended;
    timer.abort();
    client?.stop('the proxy stopped');
    await client?.outcome.catch(() => {});
    release();
    await proxy.close();
    if (options.har !== undefined)
      await writeFile(resolve(io.cwd, options.har), harOf(proxy.exchanges, upstream.href, config?.merchant.secretKey));
    const notes = [
      ...(proxy.notKept > 0
        ? [`${proxy.notKept} exchange(s) not kept (a body over 1 MiB, or beyond the first 10,000 exchanges or 256 MiB) were not judged`]
        : []),
      ...(proxy.notForwarded > 0 ? [`${proxy.notForwarded} request(s) not for a path were refused 400 and not forwarded`] : []),
      ...(proxy.upstreamFailures > 0
        ? [`${proxy.upstreamFailures} request(s) the upstream never answered got 502 from the proxy and were not judged`]
        : []),
      `traffic judges only what it exercised: ${proxy.exchanges.length} exchange(s) through the proxy`,
    ];
    const rerunCommand = `svc-conformance proxy --upstream ${upstream.href}${positionals.length > 0 ? ` -- ${positionals.map(shellQuote).join(' ')}` : ''}`;
    return reportTraffic(
      reporting,
      {
        exchanges: proxy.exchanges,
        baseUrl: upstream.href.replace(/\/$/, ''),
        config,
        notes,
        startedAt,
        rerunCommand,
        options: { upstream: upstream.href },
      },
      false,
    );
  },
});

function upstreamOf(text: string | undefined): URL {
  if (text === undefined) throw new UsageError('proxy: name the server to forward to: proxy --upstream URL');
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || !['http:', 'https:'].includes(url.protocol) || url.username !== '' || url.password !== '')
    throw new UsageError('proxy: --upstream takes an http or https URL without credentials, e.g. https://sandbox.gateway.example');
  return url;
}

function listenOf(text = '127.0.0.1:0'): [string, number] {
  const match = /^(.+):(\d{1,5})$/.exec(text);
  if (match === null || Number(match[2]) > 65_535)
    throw new UsageError(`proxy: --listen takes HOST:PORT, e.g. 127.0.0.1:8080, not ${JSON.stringify(text)}`);
  return [match[1]!.replace(/^\[(.*)\]$/, '$1'), Number(match[2])];
}

/** The exchanges as HAR 1.2, the secret redacted in every form and the signatures kept: judge --har judges them again. */
function harOf(exchanges: readonly ObservedExchange[], baseUrl: string, secret: string | undefined): string {
  const redact = createRedactor({ secrets: [secret] });
  const headers = (pairs: Array<[string, string]>) => Object.fromEntries(pairs.map(([name, value]) => [name, redact(value)]));
  const timed = exchanges.map((x) => ({
    startedAt: x.receivedAt,
    exchange: {
      label: redact(`${x.method} ${x.path}`),
      request: { method: x.method, url: redact(baseUrl.replace(/\/$/, '') + x.path), headers: headers(x.headers), body: redact(x.body) },
      response: { status: x.status, headers: headers(x.responseHeaders), body: redact(x.responseBody) },
      ms: x.respondedAt - x.receivedAt,
    },
  }));
  return renderHar(timed, { name: 'svc-conformance proxy', version: '1' }, `traffic through the proxy to ${baseUrl}`);
}
