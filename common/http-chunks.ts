// A chunked HTTP/1.1 body (RFC 9112 §7.1), walked chunk by chunk: searching for "0\r\n\r\n" instead
// ends a body early wherever its data holds that text, and never ends one with trailers.

const CRLF = Buffer.from('\r\n');
/** A chunk size and an optional extension; leading zeros are dropped after the match (`0*` in it backtracks). */
const CHUNK_SIZE = /^([0-9A-Fa-f]+)[ \t]*(?:;|$)/;
/** 13 significant hex digits reach 2^52 bytes: a longer size is no answer's. */
const MAX_SIZE_DIGITS = 13;

/** Where a chunked body stands; `end` is where the next message starts, and a malformed body has no end. */
type ChunkedState = { state: 'complete'; end: number } | { state: 'incomplete' } | { state: 'malformed'; problem: string };

/** Reads a chunked body from `start` of a growing buffer, each `read` going on from the last, so a body
 *  arriving a chunk at a time is walked once. Offsets, not views: each read may get a new buffer. */
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
        if (lineEnd === this.at) return (this.settled = { state: 'complete', end: lineEnd + CRLF.length });
        this.at = lineEnd + CRLF.length;
        continue;
      }
      const line = bytes.toString('latin1', this.at, lineEnd);
      const hex = CHUNK_SIZE.exec(line)?.[1]?.replace(/^0+(?=.)/, '');
      if (hex === undefined || hex.length > MAX_SIZE_DIGITS)
        return (this.settled = { state: 'malformed', problem: `the chunk size line ${quoted(line)} is not a hex size` });
      const length = Number.parseInt(hex, 16);
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

/** A sender's text for a message, whole or given by its length: a cut or an escape could spell an
 *  echoed secret otherwise than the redactor looks for, so only short printable ASCII is shown. */
export function quoted(text: string): string {
  return text.length <= 40 && /^[ !#-[\]-~]*$/.test(text) ? `"${text}"` : `of ${text.length} characters`;
}

/** A chunked body read at once from `start` of `bytes`, with its data. */
export function readChunked(bytes: Buffer, start = 0): ChunkedState & { data: Buffer } {
  const reader = new ChunkedReader(start);
  return { ...reader.read(bytes), data: reader.data(bytes) };
}
