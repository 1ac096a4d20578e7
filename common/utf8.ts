// Request bodies as the bytes that were sent. A default TextDecoder (and Request.text(), which uses
// one) drops a leading UTF-8 byte-order mark (EF BB BF): a server that verifies the raw bytes then
// sees canonical text where the wire held something else, and accepts what a real server refuses
// with 401. Every place that reads a body the kit judges or verifies decodes it here.

import { isAscii } from 'node:buffer';

const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body's text with nothing dropped: a byte-order mark stays U+FEFF; bytes that are not UTF-8 become U+FFFD. */
export function textAsSent(bytes: ArrayBuffer | Uint8Array): string {
  return lenient.decode(bytes);
}

/** The same, but throws a TypeError when the bytes are not UTF-8 (a server answers such a body 400). */
export function strictTextAsSent(bytes: ArrayBuffer | Uint8Array): string {
  // ASCII (most bodies) is its own UTF-8 and holds no byte-order mark: Latin-1 decodes it as fast as a copy.
  if (isAscii(bytes)) {
    const view = bytes instanceof Uint8Array ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.from(bytes);
    return view.toString('latin1');
  }
  return strict.decode(bytes);
}

/** The UTF-8 byte-order mark, as text: what a body that begins with EF BB BF begins with once decoded as sent. */
export const BYTE_ORDER_MARK = '\ufeff';
