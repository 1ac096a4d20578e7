// The request as the app reads it. A WHATWG Request costs a Headers, a URL, a body stream and an
// abort signal per request, most of the sandbox's time under load; the app only needs the method,
// the URL, header look-ups and the body's bytes, so a socket layer hands it this instead. A request
// that a Request would normalize or refuse is still built as one, so both give the same answers.

/** The header look-ups the app makes; a WHATWG Headers is one. */
export interface HeaderReader {
  /** The value, repeated headers joined with ", ", or null. Names are case-insensitive. */
  get(name: string): string | null;
  /** Each header, names lowercased and in sorted order, as Headers iterates them. */
  forEach(callback: (value: string, name: string) => void): void;
}

/** The parts of the request's URL the app reads. */
export type IncomingUrl = Pick<URL, 'href' | 'origin' | 'pathname' | 'search'>;

export interface Incoming {
  method: string;
  url: IncomingUrl;
  headers: HeaderReader;
  /** The body's bytes as sent, or undefined when they could not be read. */
  body: Uint8Array | undefined;
  /** The same request as a WHATWG Request, for a page route that takes one. */
  toRequest(): Request;
}

/** The methods a Request keeps as they are: uppercase, neither normalized nor forbidden. */
const PLAIN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);
/** A header name a Headers takes as it is (an RFC 9110 token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * A header value a Headers takes unchanged: Latin-1, no NUL, CR or LF, and no leading or trailing
 * space or tab (which it would strip). Anything else goes through a real Headers.
 */
const PLAIN_VALUE = /^(?:[^\0\t\n\r \u0100-\uffff](?:[^\0\n\r\u0100-\uffff]*[^\0\t\n\r \u0100-\uffff])?)?$/;

/**
 * A target that URL parsing leaves as it is: a path of plain characters (no dot segment, no
 * percent sign, not '//'), and a query of plain characters. Any other target is parsed as a URL.
 */
const PLAIN_TARGET = /^\/(?!\/)[A-Za-z0-9\-_~/]*(\?[A-Za-z0-9\-._~=&]*)?$/;

/** Serialized origins by the origin text a socket layer gives (a client's Host is the same on every request). */
const origins = new Map<string, string>();

/** `origin` as a URL serializes it (host lowercased, a default port dropped); throws where URL would. */
function serializedOrigin(origin: string): string {
  let serialized = origins.get(origin);
  if (serialized === undefined) {
    serialized = new URL(origin).origin;
    // Bounded: a client that varies its Host header cannot grow the cache.
    if (origins.size >= 64) origins.clear();
    origins.set(origin, serialized);
  }
  return serialized;
}

/** The URL of `target` resolved against `origin`, parsed only when it is not plain. */
function urlOf(target: string, origin: string): IncomingUrl {
  const plain = PLAIN_TARGET.exec(target);
  if (plain === null) return new URL(target, origin);
  const serialized = serializedOrigin(origin);
  const query = plain[1] ?? '';
  return {
    href: serialized + target,
    origin: serialized,
    pathname: target.slice(0, target.length - query.length),
    // An empty query ('?' alone) reads as no query, as URL's `search` does.
    search: query.length > 1 ? query : '',
  };
}

/** Headers from a socket layer, kept as a Headers would keep them (only plain ones reach here). */
class WireHeaders implements HeaderReader {
  private readonly values = new Map<string, string>();

  add(name: string, value: string): void {
    const key = name.toLowerCase();
    const before = this.values.get(key);
    this.values.set(key, before === undefined ? value : `${before}, ${value}`);
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const name of [...this.values.keys()].sort()) callback(this.values.get(name)!, name);
  }
}

/** A Request for the same method, URL, headers and body (GET and HEAD carry none). */
function requestOf(method: string, url: URL | string, headers: Iterable<readonly [string, string]>, body: Uint8Array): Request {
  const init = new Headers();
  for (const [name, value] of headers) init.append(name, value);
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, { method, headers: init, ...(hasBody ? { body } : {}) });
}

/**
 * The request a socket layer read, as the app takes it. Throws (a TypeError) where building a
 * Request would: a malformed method, header, or target.
 */
export function incomingFromWire(
  method: string,
  target: string,
  origin: string,
  rawHeaders: Iterable<readonly [string, string]>,
  body: Uint8Array,
  /**
   * The headers come from node's parser (llhttp, strict): it refuses a name that is not a token and a
   * value with NUL, CR or LF, trims the space and tabs around a value, and reads bytes as Latin-1. So
   * each is as a Headers would keep it, and is not looked at again.
   */
  headersChecked = false,
): Incoming {
  const url = urlOf(target, origin);
  const headers = new WireHeaders();
  let plain = PLAIN_METHODS.has(method) && (!(url instanceof URL) || (url.username === '' && url.password === ''));
  for (const [name, value] of rawHeaders) {
    if ((!headersChecked && (!TOKEN.test(name) || !PLAIN_VALUE.test(value))) || name.toLowerCase() === 'set-cookie') plain = false;
    if (plain) headers.add(name, value);
  }
  // Anything a Request would change or refuse: build one, and read the request from it.
  if (!plain) return incomingFromRequest(requestOf(method, url.href, rawHeaders, body), body);
  const bytes = method === 'GET' || method === 'HEAD' ? new Uint8Array(0) : body;
  return { method, url, headers, body: bytes, toRequest: () => requestOf(method, url.href, rawHeaders, body) };
}

/** A Request as the app takes it; `bytes`, when given, are its body already read. */
function incomingFromRequest(request: Request, bytes: Uint8Array | undefined): Incoming {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return {
    method: request.method,
    url: new URL(request.url),
    headers: request.headers,
    body: hasBody ? bytes : new Uint8Array(0),
    toRequest: () => request,
  };
}

/** A Request handed to the app in-process, its body read (undefined when the read failed). */
export async function incomingFromFetch(request: Request): Promise<Incoming> {
  const bytes = await request
    .clone()
    .arrayBuffer()
    .then(
      (buffer) => new Uint8Array(buffer),
      () => undefined,
    );
  return incomingFromRequest(request, bytes);
}
