// The traffic proxy (P-TRAFFIC-1): forwards each request to the upstream and its answer back, changing
// nothing but the framing and Host, and keeps what it saw, bounded, for the judges of observed traffic.
import {
  type ClientRequest,
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readBounded } from '../common/bounded-body.js';
import type { ObservedExchange } from './har-input.js';

/** Hop-by-hop headers (RFC 9110 §7.6.1): each connection's own, never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
/** A body kept for judging at most; a longer one is forwarded whole but its exchange is not judged. */
export const MAX_KEPT_BODY = 1024 * 1024;
/** What a proxy left running for hours keeps for judging at most; the rest is forwarded, counted and not judged. */
export const KEEP_AT_MOST = { exchanges: 10_000, bytes: 256 * 1024 * 1024 };

export interface ProxyOptions {
  upstream: URL;
  /** PEM of a private CA the upstream's certificate is checked against too. */
  ca?: string;
  host: string;
  port: number;
  keep?: typeof KEEP_AT_MOST;
  /** Told of each exchange once its answer has gone back (undefined: not kept, too large or beyond the bound). */
  onExchange: (x: ObservedExchange | undefined, line: { method: string; path: string; status: number | string }) => void;
}

export interface RunningProxy {
  url: string;
  exchanges: ObservedExchange[];
  /** Exchanges seen but not kept: a body over MAX_KEPT_BODY, or beyond MAX_KEPT_EXCHANGES. */
  notKept: number;
  /** Requests the upstream never answered (refused, reset, TLS): the client got a 502. */
  upstreamFailures: number;
  /** Requests not for a path (absolute-form, as sent to an HTTP proxy): refused 400, never forwarded. */
  notForwarded: number;
  seen: number;
  close(): Promise<void>;
}

/** What a stream carries, read alongside whoever it is piped to: at most `max` bytes (undefined when longer,
 * or cut off before its end: a client gone mid-upload). */
function kept(stream: IncomingMessage, max = MAX_KEPT_BODY): Promise<string | undefined> {
  return readBounded(stream, { keep: max, stopAfter: Infinity }).then(
    (body) => (body.cut ? undefined : body.kept.toString('utf8')),
    () => undefined,
  );
}

/** The request's body piped upstream and kept; one the client never finished (its connection gone once the
 * answer was out) is cut off upstream too, and not kept. */
function sendBody(req: IncomingMessage, out: ClientRequest): Promise<string | undefined> {
  const body = kept(req);
  const gone = () => req.complete || (req.destroy(), out.destroy());
  req.socket.once('close', gone);
  req.once('end', () => req.socket.off('close', gone));
  req.pipe(out);
  return body;
}

const endToEnd = (raw: string[]): Array<[string, string]> =>
  raw.flatMap((name, i) => (i % 2 === 0 && !HOP_BY_HOP.has(name.toLowerCase()) ? [[name, raw[i + 1]!] as [string, string]] : []));

const lower = (pairs: Array<[string, string]>) => pairs.map(([n, v]): [string, string] => [n.toLowerCase(), v]);

/** The request as it goes upstream: its end-to-end headers but Host, the path as it came, byte for byte (a URL
 * would re-escape it), after the upstream's own path. */
function upstreamRequest(req: IncomingMessage, sent: Array<[string, string]>, upstream: URL, agent: HttpAgent) {
  const headers = sent.filter(([name]) => name.toLowerCase() !== 'host');
  // A body sent chunked goes on chunked (framing may differ, P-TRAFFIC-1); one with Content-Length keeps it.
  if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined)
    headers.push(['Transfer-Encoding', 'chunked']);
  return (upstream.protocol === 'https:' ? httpsRequest : httpRequest)({
    protocol: upstream.protocol,
    hostname: upstream.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: upstream.port,
    path: upstream.pathname.replace(/\/$/, '') + req.url!,
    method: req.method,
    headers: [...headers.flat(), 'Host', upstream.host],
    agent,
  });
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const https = options.upstream.protocol === 'https:';
  const agent = https ? new HttpsAgent({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) }) : new HttpAgent({ keepAlive: true });
  const state = { exchanges: [] as ObservedExchange[], notKept: 0, upstreamFailures: 0, notForwarded: 0, seen: 0 };
  const bound = options.keep ?? KEEP_AT_MOST;
  let keptBytes = 0;

  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const receivedAt = Date.now();
    const sentHeaders = endToEnd(req.rawHeaders);
    const out = upstreamRequest(req, sentHeaders, options.upstream, agent);
    const answered = new Promise<IncomingMessage>((resolve, reject) => out.on('response', resolve).on('error', reject));
    const body = sendBody(req, out);
    const line = { method: req.method ?? 'GET', path: req.url ?? '/' };
    state.seen++;
    let answer: IncomingMessage;
    try {
      answer = await answered;
    } catch (error) {
      state.upstreamFailures++;
      const message = `svc-conformance proxy: the upstream ${options.upstream.origin} did not answer: ${(error as Error).message}`;
      if (!res.headersSent)
        res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ status: false, code: 502, message }));
      options.onExchange(undefined, { ...line, status: `502 (${(error as NodeJS.ErrnoException).code ?? 'no answer'})` });
      return;
    }
    const answerHeaders = endToEnd(answer.rawHeaders);
    res.writeHead(answer.statusCode ?? 502, answerHeaders.flat());
    answer.pipe(res);
    const [responseBody, sent] = await Promise.all([kept(answer), body]);
    // An answer the upstream cut off is cut off for the client too, not left waiting for the rest.
    if (!answer.complete) res.destroy();
    const size = (sent?.length ?? Infinity) + (responseBody?.length ?? Infinity);
    const status = answer.statusCode ?? 0;
    if (state.exchanges.length >= bound.exchanges || keptBytes + size > bound.bytes) {
      state.notKept++;
      return options.onExchange(undefined, { ...line, status });
    }
    keptBytes += size;
    const retryAfter = answer.headers['retry-after'];
    const x: ObservedExchange = {
      ...line,
      headers: lower(sentHeaders),
      body: sent!,
      receivedAt,
      respondedAt: Date.now(),
      status,
      ...(retryAfter !== undefined ? { retryAfter } : {}),
      responseBody: responseBody!,
      responseHeaders: lower(answerHeaders),
    };
    state.exchanges.push(x);
    options.onExchange(x, { ...line, status });
  };

  // A target that is not a path names a host of its own (absolute-form): sent on, it could reach elsewhere.
  const refuse = (req: IncomingMessage, res: ServerResponse) => {
    state.seen++;
    state.notForwarded++;
    req.resume();
    const message = `svc-conformance proxy: forwards paths only, not ${JSON.stringify(req.url)}: use the proxy as the base URL, not as an HTTP proxy`;
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ status: false, code: 400, message }));
    options.onExchange(undefined, { method: req.method ?? 'GET', path: req.url ?? '', status: '400 (not a path: not forwarded)' });
  };
  // A request without Host is forwarded too (the upstream gets one): judging it is the point, refusing it is not.
  const server = createServer({ requireHostHeader: false }, (req, res) =>
    req.url?.startsWith('/') ? void forward(req, res).catch(() => res.destroy()) : refuse(req, res),
  );
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port, options.host, resolve));
  const { address, port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  });
}
