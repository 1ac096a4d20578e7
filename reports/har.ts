// Every exchange of a run as HAR 1.2 (run --har FILE), for dev tools, proxies and HAR viewers. The
// exchanges are the evidence's: secrets and signatures already redacted, bodies cut as it cuts them.
import { STATUS_CODES } from 'node:http';
import type { Exchange } from '../core/exchange.js';
import type { Reporter, RunEnd } from '../core/reporter.js';
import { writeAtomically } from './write.js';

/** An exchange and when it was sent (ms since the epoch). */
export interface TimedExchange {
  exchange: Exchange;
  startedAt: number;
}

type NameValue = { name: string; value: string };
const pairs = (headers: Record<string, string>): NameValue[] => Object.entries(headers).map(([name, value]) => ({ name, value }));
const header = (headers: Record<string, string>, name: string): string | undefined =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

function entry({ exchange, startedAt }: TimedExchange) {
  const { request } = exchange;
  // A URL that does not parse keeps no query string.
  const queryString = URL.canParse(request.url) ? [...new URL(request.url).searchParams].map(([name, value]) => ({ name, value })) : [];
  const answer = exchange.response;
  const responseSize = answer ? Buffer.byteLength(answer.body, 'utf8') : 0;
  return {
    startedDateTime: new Date(startedAt).toISOString(),
    time: exchange.ms,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(request.headers),
      queryString,
      ...(request.body !== ''
        ? { postData: { mimeType: header(request.headers, 'content-type') ?? 'application/json', text: request.body } }
        : {}),
      headersSize: -1,
      bodySize: Buffer.byteLength(request.body, 'utf8'),
    },
    // No answer (refused, timed out, reset): HAR's way is status 0; the reason is a custom field.
    response: {
      status: answer?.status ?? 0,
      statusText: answer ? (STATUS_CODES[answer.status] ?? '') : '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: answer ? pairs(answer.headers) : [],
      content: answer
        ? { size: responseSize, mimeType: header(answer.headers, 'content-type') ?? 'x-unknown', text: answer.body }
        : { size: 0, mimeType: 'x-unknown' },
      redirectURL: (answer && header(answer.headers, 'location')) ?? '',
      headersSize: -1,
      bodySize: answer ? responseSize : -1,
      ...(answer ? {} : { _error: exchange.error.message }),
    },
    cache: {},
    timings: { send: 0, wait: exchange.ms, receive: 0 },
    comment: exchange.label,
  };
}

/** The HAR 1.2 document of exchanges (a run's, a proxy's), in the order they were sent. */
export function renderHar(exchanges: readonly TimedExchange[], creator: { name: string; version: string }, comment: string): string {
  const entries = [...exchanges].sort((a, b) => a.startedAt - b.startedAt).map(entry);
  return JSON.stringify({ log: { version: '1.2', creator, comment, entries } }, null, 1) + '\n';
}

/** Every exchange of the run, kept as the evidence keeps it (redacted), written to `file` when the run ends. */
export class HarReporter implements Reporter {
  private readonly traffic: TimedExchange[] = [];

  constructor(
    private readonly file: string,
    /** Told when the file cannot be written: the reports and the verdict stand without it. */
    private readonly onFailure: (error: unknown) => void,
  ) {}

  onExchange(exchange: Exchange): void {
    this.traffic.push({ exchange, startedAt: Date.now() - exchange.ms });
  }

  async onRunEnd(end: RunEnd): Promise<void> {
    const { report } = end;
    const comment = `svc-conformance run of ${report.target.baseUrl}, seed ${report.seed}`;
    try {
      await writeAtomically(this.file, renderHar(this.traffic, { name: report.tool.name, version: report.tool.version }, comment));
      end.files.push(this.file);
    } catch (error) {
      this.onFailure(error);
    }
  }
}
