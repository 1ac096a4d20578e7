// A chunked HTTP/1.1 body (RFC 9112 §7.1), walked chunk by chunk: the one reading of it for the
// kit's hand-written HTTP (suites/raw-http.ts) and the bench's load driver (bench/wire-driver.ts).
// Searching the bytes for "0\r\n\r\n" instead ends a body early wherever its data holds that text (a
// chunk of CRLF-ended lines that ends "…400\r\n" does), and never ends one that has trailer fields.

const CRLF = Buffer.from('\r\n');
/** A chunk size, before any extension: hex digits, then optional whitespace (RFC 9112's BWS). */
const CHUNK_SIZE = /^([0-9A-Fa-f]+)[ \t]*(?:;|$)/;

/**
 * A chunked body read from `start` in `bytes`:
 * - `complete`: its last chunk and trailer section have come; `end` is where the next message starts.
 * - `incomplete`: more bytes are needed.
 * - `malformed`: a chunk size that is not hex, or chunk data not followed by CRLF; no end can be found.
 * `data` is the chunks' data as far as it came (a chunk cut short by the end of `bytes` included) and
 * was well-formed.
 */
export type ChunkedBody =
  | { state: 'complete'; data: Buffer; end: number }
  | { state: 'incomplete'; data: Buffer }
  | { state: 'malformed'; data: Buffer; problem: string };

export function readChunked(bytes: Buffer, start = 0): ChunkedBody {
  const parts: Buffer[] = [];
  const data = () => Buffer.concat(parts);
  let at = start;
  for (;;) {
    const lineEnd = bytes.indexOf(CRLF, at);
    if (lineEnd < 0) return { state: 'incomplete', data: data() };
    const line = bytes.toString('latin1', at, lineEnd);
    const size = CHUNK_SIZE.exec(line);
    // More than 13 hex digits cannot be a size this side of 2^53: no sender means it.
    if (size === null || size[1]!.length > 13)
      return { state: 'malformed', data: data(), problem: `the chunk size line ${JSON.stringify(line.slice(0, 40))} is not a hex size` };
    const length = Number.parseInt(size[1]!, 16);
    const dataStart = lineEnd + CRLF.length;
    if (length === 0) return trailers(bytes, dataStart, parts);
    const dataEnd = dataStart + length;
    if (bytes.length < dataEnd + CRLF.length) {
      parts.push(bytes.subarray(dataStart, Math.min(dataEnd, bytes.length)));
      return { state: 'incomplete', data: data() };
    }
    if (bytes[dataEnd] !== 0x0d || bytes[dataEnd + 1] !== 0x0a)
      return { state: 'malformed', data: data(), problem: `a chunk of ${length} bytes is not followed by CRLF` };
    parts.push(bytes.subarray(dataStart, dataEnd));
    at = dataEnd + CRLF.length;
  }
}

/** After the last chunk: trailer fields, each a line, then an empty line that ends the body. */
function trailers(bytes: Buffer, from: number, parts: Buffer[]): ChunkedBody {
  let at = from;
  for (;;) {
    const lineEnd = bytes.indexOf(CRLF, at);
    if (lineEnd < 0) return { state: 'incomplete', data: Buffer.concat(parts) };
    if (lineEnd === at) return { state: 'complete', data: Buffer.concat(parts), end: lineEnd + CRLF.length };
    at = lineEnd + CRLF.length;
  }
}
