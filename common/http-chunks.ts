// A chunked HTTP/1.1 body (RFC 9112 §7.1), walked chunk by chunk: the one reading of it for the
// kit's hand-written HTTP (suites/raw-http.ts) and the bench's load driver (bench/wire-driver.ts).
// Searching the bytes for "0\r\n\r\n" instead ends a body early wherever its data holds that text (a
// chunk of CRLF-ended lines that ends "…400\r\n" does), and waits forever for one whose trailer
// section ends otherwise.

const CRLF = Buffer.from('\r\n');
/**
 * A chunk size: hex digits, then an extension after ";" (with the whitespace RFC 9112 allows before
 * it). Whitespace before the CRLF without an extension is tolerated: it frames nothing differently.
 * (Leading zeros are dropped after the match, not by it: `0*` before the digits let a line of zeros
 * be matched in quadratically many ways, minutes of one thread for a megabyte of them.)
 */
const CHUNK_SIZE = /^([0-9A-Fa-f]+)[ \t]*(?:;|$)/;
/** 13 significant hex digits reach 2^52 bytes: a longer size is no answer's. */
const MAX_SIZE_DIGITS = 13;

/**
 * Where a chunked body stands: `complete` once its last chunk and trailer section have come (`end` is
 * where the next message starts); `incomplete` while more bytes are needed; `malformed` at a chunk
 * size that is not hex, or chunk data not followed by CRLF, after which no end can be found.
 */
export type ChunkedState = { state: 'complete'; end: number } | { state: 'incomplete' } | { state: 'malformed'; problem: string };

/**
 * Reads a chunked body that starts at `start` of a buffer which grows as bytes arrive: each `read`
 * goes on from where the last stopped, so a body that comes a chunk at a time is walked once, not
 * once per arrival. Where each chunk's data lies is kept as offsets, not views of the buffer, so a
 * caller may hand a new buffer (the same bytes, more appended) each time.
 */
export class ChunkedReader {
  private at: number;
  private inTrailers = false;
  /** Start and end of each whole chunk's data, in turn. */
  private readonly spans: number[] = [];
  /** A chunk whose size line has come but not all of its data and CRLF: where its data lies. */
  private partial: [number, number] | undefined;
  private settled: ChunkedState | undefined;
  /** How far the bytes have been searched for the end of the current line, so no byte is searched twice. */
  private scanned = 0;

  constructor(start = 0) {
    this.at = start;
  }

  read(bytes: Buffer): ChunkedState {
    if (this.settled !== undefined) return this.settled;
    this.partial = undefined;
    for (;;) {
      const lineEnd = bytes.indexOf(CRLF, Math.max(this.at, this.scanned - 1));
      if (lineEnd < 0) {
        this.scanned = bytes.length;
        return { state: 'incomplete' };
      }
      if (this.inTrailers) {
        // Trailer fields, a line each, until an empty line ends the body.
        if (lineEnd === this.at) return (this.settled = { state: 'complete', end: lineEnd + CRLF.length });
        this.at = lineEnd + CRLF.length;
        continue;
      }
      const line = bytes.toString('latin1', this.at, lineEnd);
      const hex = CHUNK_SIZE.exec(line)?.[1];
      let first = 0;
      while (hex !== undefined && first < hex.length - 1 && hex[first] === '0') first++;
      if (hex === undefined || hex.length - first > MAX_SIZE_DIGITS)
        return (this.settled = {
          state: 'malformed',
          problem: `the chunk size line ${quoted(line)} is not a hex size`,
        });
      const length = Number.parseInt(hex.slice(first), 16);
      const dataStart = lineEnd + CRLF.length;
      if (length === 0) {
        this.inTrailers = true;
        this.at = dataStart;
        continue;
      }
      const dataEnd = dataStart + length;
      if (bytes.length < dataEnd + CRLF.length) {
        this.partial = [dataStart, Math.min(dataEnd, bytes.length)];
        return { state: 'incomplete' };
      }
      if (bytes[dataEnd] !== 0x0d || bytes[dataEnd + 1] !== 0x0a)
        return (this.settled = { state: 'malformed', problem: `a chunk of ${length} bytes is not followed by CRLF` });
      this.spans.push(dataStart, dataEnd);
      this.at = dataEnd + CRLF.length;
    }
  }

  /** The chunks' data in `bytes` as far as it came (a chunk cut short by the end so far included) and was well-formed. */
  data(bytes: Buffer): Buffer {
    const parts: Buffer[] = [];
    for (let i = 0; i < this.spans.length; i += 2) parts.push(bytes.subarray(this.spans[i], this.spans[i + 1]));
    if (this.partial !== undefined) parts.push(bytes.subarray(...this.partial));
    return Buffer.concat(parts);
  }
}

/**
 * A text of the sender's, for a message: whole or not at all, never cut or changed. A message is
 * redacted as a whole (a secret echoed in it hidden); a cut, or an escape JSON adds, could leave a
 * secret spelled otherwise than the redactor looks for. So only a short text of printable ASCII, with
 * no quote or backslash, is shown; any other is given by its length.
 */
export function quoted(text: string): string {
  return text.length <= 40 && /^[ !#-[\]-~]*$/.test(text) ? `"${text}"` : `of ${text.length} characters`;
}

/** A chunked body read at once from `start` of `bytes`, with its data. */
export function readChunked(bytes: Buffer, start = 0): ChunkedState & { data: Buffer } {
  const reader = new ChunkedReader(start);
  return { ...reader.read(bytes), data: reader.data(bytes) };
}
