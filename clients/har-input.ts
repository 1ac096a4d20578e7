// Recorded traffic from a HAR 1.2 file (a browser's export, the kit's own --har, a proxy's), as the
// exchanges the client and server judges read. What HAR did not keep (a body) is counted, never guessed.
import { isJsonObject, jsonOf } from '../core/json-of.js';
import { operationAtPath } from '../core/operations.js';
import type { RecordedExchange } from '../sandbox/options.js';

/** An observed exchange: what the recording sandbox records, with the answer's headers (a real server's). */
export type ObservedExchange = RecordedExchange & { responseHeaders: Array<[string, string]> };

export interface HarTraffic {
  exchanges: ObservedExchange[];
  /** Where the API was: the config's base URL, or the origin and prefix of the first operation seen. */
  baseUrl: string | undefined;
  /** Entries to the API whose request or answer body the file did not keep: not judged. */
  notRecorded: number;
  /** Entries to anywhere else (a page's scripts, another host): not the API's traffic. */
  elsewhere: number;
}

interface HarEntry {
  startedDateTime?: string;
  time?: number;
  request?: {
    method?: string;
    url?: string;
    headers?: Array<{ name?: string; value?: string }>;
    postData?: { text?: string };
    bodySize?: number;
  };
  response?: {
    status?: number;
    headers?: Array<{ name?: string; value?: string }>;
    content?: { text?: string; encoding?: string; size?: number };
  };
}

/** Why a text is not HAR 1.2, or its entries. */
export function harEntries(text: string): HarEntry[] | string {
  const doc = jsonOf(text.replace(/^\uFEFF/, ''));
  if (doc === undefined) return 'is not JSON';
  const entries = isJsonObject(doc) && isJsonObject(doc.log) ? doc.log.entries : undefined;
  return Array.isArray(entries) ? (entries as HarEntry[]) : 'has no log.entries (not a HAR 1.2 file)';
}

/** The base URL of the first entry whose path ends with an operation's. */
function inferredBase(entries: readonly HarEntry[]): string | undefined {
  for (const entry of entries) {
    const url = parsedUrl(entry.request?.url);
    const op = url && [...url.pathname.matchAll(/\/api\/v3\//g)].at(-1);
    if (url && op !== undefined && operationAtPath(url.pathname.slice(op.index)) !== undefined)
      return url.origin + url.pathname.slice(0, op.index);
  }
  return undefined;
}

function parsedUrl(text: string | undefined): URL | undefined {
  return text !== undefined && URL.canParse(text) ? new URL(text) : undefined;
}

const headerPairs = (headers: HarEntry['request' | 'response']): Array<[string, string]> =>
  (headers?.headers ?? []).map((h) => [String(h.name ?? '').toLowerCase(), String(h.value ?? '')]);

/** The API's exchanges of a HAR's entries, in the order they were sent; `baseUrl` (the config's) decides what is the API. */
export function harTraffic(entries: readonly HarEntry[], baseUrl = inferredBase(entries)): HarTraffic {
  const base = parsedUrl(baseUrl);
  const prefix = base?.pathname.replace(/\/$/, '') ?? '';
  const traffic: HarTraffic = { exchanges: [], baseUrl, notRecorded: 0, elsewhere: 0 };
  for (const entry of entries) {
    const url = parsedUrl(entry.request?.url);
    if (base === undefined || url === undefined || url.origin !== base.origin || !url.pathname.startsWith(prefix)) {
      traffic.elsewhere++;
      continue;
    }
    const { request = {}, response = {} } = entry;
    const content = response.content ?? {};
    const body = request.postData?.text ?? ((request.bodySize ?? 0) > 0 ? undefined : '');
    const answer =
      content.text === undefined
        ? (content.size ?? 0) > 0
          ? undefined
          : ''
        : content.encoding === 'base64'
          ? Buffer.from(content.text, 'base64').toString('utf8')
          : content.text;
    if (body === undefined || answer === undefined) {
      traffic.notRecorded++;
      continue;
    }
    const receivedAt = Date.parse(entry.startedDateTime ?? '');
    const responseHeaders = headerPairs(response);
    const retryAfter = responseHeaders.find(([name]) => name === 'retry-after')?.[1];
    traffic.exchanges.push({
      method: String(request.method ?? 'GET').toUpperCase(),
      path: url.pathname.slice(prefix.length) + url.search,
      headers: headerPairs(request),
      body,
      receivedAt: Number.isNaN(receivedAt) ? 0 : receivedAt,
      respondedAt: (Number.isNaN(receivedAt) ? 0 : receivedAt) + Math.max(0, Number(entry.time) || 0),
      status: Number(response.status) || 0,
      ...(retryAfter !== undefined ? { retryAfter } : {}),
      responseBody: answer,
      responseHeaders,
    });
  }
  return traffic;
}
