// Reads a captured request (HTTP/1.1 text or a curl command line) for `diagnose` to take the
// timestamp, signature and body from. Pure: no file, network or clock access.
import { parseCurlCommand } from './capture-curl.js';
import type { CapturedRequest } from './captured-request.js';
import { type CaptureError, quoteExcerpt as quote, unreadable, unsupported } from './capture-error.js';

export { CaptureError } from './capture-error.js';
export type { CapturedRequest } from './captured-request.js';

/** `curl` after optional leading whitespace and an optional `$ ` prompt. */
const CURL_START = /^\s*(?:\$[ \t]+)?curl(?:\.exe)?(?=\s|$)/;

/** Auto-detects the format: a curl command line, otherwise an HTTP/1.1 request. */
export function parseCapturedRequest(text: string): CapturedRequest {
  if (text.trim() === '') {
    throw unreadable('the capture is empty; paste the whole request (request line, headers, a blank line, the body) or the curl command');
  }
  const curl = CURL_START.exec(text);
  if (!curl) return parseHttpRequest(text);
  // Blank out the prompt and `curl` but keep every newline, so error positions match the pasted text.
  return parseCurlCommand(curl[0].replace(/[^\n]/g, ' ') + text.slice(curl[0].length));
}

/** The value of the first of `names` present (case-insensitive); for a repeated header, its first value. */
export function headerValue(req: CapturedRequest, ...names: string[]): string | undefined {
  for (const name of names) {
    const wanted = name.toLowerCase();
    const found = req.headers.find(([n]) => n.toLowerCase() === wanted);
    if (found) return found[1];
  }
  return undefined;
}

/** The authentication headers; the API key also answers to `x-client-id`, which one sample request sends. */
export function authHeaders(req: CapturedRequest): { apiKey?: string; signature?: string; timestamp?: string } {
  const found: Array<[string, string | undefined]> = [
    ['apiKey', headerValue(req, 'X-API-KEY', 'x-client-id')],
    ['signature', headerValue(req, 'X-SIGNATURE')],
    ['timestamp', headerValue(req, 'X-TIMESTAMP')],
  ];
  return Object.fromEntries(found.filter(([, value]) => value !== undefined));
}

// ---- HTTP/1.1 text -------------------------------------------------------------------------------

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]+(\S+)[ \t]+HTTP\/\d(?:\.\d)?[ \t]*$/;
const EXAMPLE_REQUEST_LINE = '`POST /api/v3/pg/order/create HTTP/1.1`';

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The line starting at `start` without its LF or CRLF, and where the next line starts. */
function readLine(text: string, start: number): { line: string; next: number } {
  const lf = text.indexOf('\n', start);
  const end = lf < 0 ? text.length : lf;
  const line = text.slice(start, end);
  return { line: line.endsWith('\r') ? line.slice(0, -1) : line, next: lf < 0 ? text.length : lf + 1 };
}

function parseHttpRequest(text: string): CapturedRequest {
  let first = readLine(text, 0);
  while (first.line.trim() === '' && first.next < text.length) first = readLine(text, first.next); // pasted leading blank lines
  const match = REQUEST_LINE.exec(first.line);
  if (!match) throw notARequestLine(first.line);
  let pos = first.next;

  const headers: Array<[string, string]> = [];
  let bodyStart: number | undefined;
  for (let lineNo = 2; pos < text.length; lineNo += 1) {
    const { line, next } = readLine(text, pos);
    pos = next;
    if (line === '') {
      bodyStart = next;
      break;
    }
    const last = headers[headers.length - 1];
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      last[1] = `${last[1]} ${line.trim()}`.trim(); // obs-fold: a continuation of the previous header
      continue;
    }
    const colon = line.indexOf(':', line.startsWith(':') ? 1 : 0); // HTTP/2 pseudo-headers start with ':'
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    if (!TOKEN.test(name.replace(/^:/, ''))) {
      throw unreadable(
        `line ${lineNo} is not a header line \`Name: value\` (got ${quote(line)}); ` +
          'if the body starts here, put an empty line between the headers and the body',
      );
    }
    headers.push([name, line.slice(colon + 1).trim()]);
  }

  const rest = bodyStart === undefined ? '' : text.slice(bodyStart);
  return { format: 'http', method: match[1]!.toUpperCase(), target: match[2]!, headers, body: frameBody(rest, headers) };
}

function notARequestLine(line: string): CaptureError {
  if (/^HTTP\/\d/.test(line)) {
    return unreadable(`the first line ${quote(line)} starts an HTTP response, not a request; paste the request that was sent`);
  }
  const hint = /^\s*[[{]/.test(line)
    ? '; this looks like a body alone: paste the whole request (request line, headers, a blank line, the body)'
    : '';
  return unreadable(`the first line is not an HTTP request line (expected ${EXAMPLE_REQUEST_LINE}, got ${quote(line)})${hint}`);
}

/** Applies Transfer-Encoding or Content-Length to the text after the blank line. */
function frameBody(rest: string, headers: Array<[string, string]>): string {
  const valuesOf = (name: string): string[] =>
    headers
      .filter(([n]) => n.toLowerCase() === name)
      .flatMap(([, v]) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');

  const codings = valuesOf('transfer-encoding').map((v) => v.toLowerCase());
  if (codings.length > 0) {
    if (codings.length > 1 || codings[0] !== 'chunked') {
      throw unsupported(
        `Transfer-Encoding ${quote(codings.join(', '))} is not supported (only chunked); capture the request before compression`,
      );
    }
    return decodeChunked(rest);
  }

  const lengths = valuesOf('content-length');
  if (lengths.length === 0) return rest;
  if (!lengths.every((v) => /^\d+$/.test(v)) || new Set(lengths.map(Number)).size > 1) {
    throw unreadable(`Content-Length ${quote(lengths.join(', '))} is not one whole number of bytes`);
  }
  const length = Number(lengths[0]);
  const bytes = utf8.encode(rest);
  if (bytes.length <= length) return rest; // a shorter body is kept as it is: diagnose reports the mismatch
  return decodeUtf8(bytes.subarray(0, length), `Content-Length ${length} ends inside a multi-byte character`);
}

function decodeChunked(rest: string): string {
  const bytes = utf8.encode(rest);
  const chunks: Uint8Array[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const lf = bytes.indexOf(0x0a, pos);
    const sizeLine = decodeUtf8(bytes.subarray(pos, lf < 0 ? bytes.length : lf), 'a chunk-size line is not UTF-8').replace(/\r$/, '');
    const size = /^([0-9a-fA-F]+)[ \t]*(?:;.*)?$/.exec(sizeLine)?.[1];
    if (size === undefined) throw unreadable(`chunked body: expected a chunk size in hexadecimal, got ${quote(sizeLine)}`);
    const length = Number.parseInt(size, 16);
    pos = lf < 0 ? bytes.length : lf + 1;
    if (length === 0) break; // the last chunk; trailer fields are not part of the body
    if (pos + length > bytes.length) {
      throw unreadable(`chunked body: a chunk announces ${length} bytes but only ${bytes.length - pos} remain`);
    }
    chunks.push(bytes.subarray(pos, pos + length));
    pos += length;
    if (bytes[pos] === 0x0d && bytes[pos + 1] === 0x0a) pos += 2;
    else if (bytes[pos] === 0x0a)
      pos += 1; // pasted captures often lose their CRs
    else if (pos < bytes.length) {
      throw unreadable(`chunked body: the ${length}-byte chunk is not followed by a line break; check its size (bytes, in hex)`);
    }
  }
  return decodeUtf8(Buffer.concat(chunks), 'chunked body is not valid UTF-8; check the chunk sizes (bytes, in hex)');
}

function decodeUtf8(bytes: Uint8Array, problem: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw unreadable(problem);
  }
}
