// Bodies as the bytes sent: a default TextDecoder drops a leading byte-order mark, and a raw-body
// verifier would then accept what a real server refuses. Every body the kit judges is decoded here.

const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body's text with nothing dropped: a byte-order mark stays U+FEFF; bytes that are not UTF-8 become U+FFFD. */
export function textAsSent(bytes: ArrayBuffer | Uint8Array): string {
  return lenient.decode(bytes);
}

/** The same, but throws a TypeError when the bytes are not UTF-8 (a server answers such a body 400). */
export function strictTextAsSent(bytes: ArrayBuffer | Uint8Array): string {
  return strict.decode(bytes);
}

/** The UTF-8 byte-order mark (EF BB BF) as decoded text. */
export const BYTE_ORDER_MARK = '\ufeff';
