// The body as sent: a byte-order mark kept, and in the strict form, bytes that are not UTF-8 refused.
// ASCII takes a shorter road in the strict form: it must come out as the decoder would give it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BYTE_ORDER_MARK, strictTextAsSent, textAsSent } from './utf8.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
/** Any Unicode scalar value, ASCII as often as not: one to four bytes of UTF-8. */
const scalar = fc
  .oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }))
  .map((code) => String.fromCodePoint(code));

describe('strictTextAsSent', () => {
  it('decodes any UTF-8 as TextDecoder does, ASCII or not, from a view at any offset of its buffer', () => {
    fc.assert(
      fc.property(fc.string({ unit: scalar }), fc.string({ unit: scalar }), fc.boolean(), (before, text, ascii) => {
        const body = ascii ? text.replace(/[^\x00-\x7f]/g, 'x') : text;
        // The body sits between other bytes of one buffer, as node hands over a slice of a larger one.
        const whole = utf8(before + body + before);
        const start = utf8(before).length;
        const view = new Uint8Array(whole.buffer, start, utf8(body).length);
        return (
          strictTextAsSent(view) === body && strictTextAsSent(Buffer.from(view)) === body && strictTextAsSent(view.slice().buffer) === body
        );
      }),
    );
  });

  it('keeps a byte-order mark, and refuses bytes that are not UTF-8', () => {
    expect(strictTextAsSent(utf8(`${BYTE_ORDER_MARK}{}`))).toBe(`${BYTE_ORDER_MARK}{}`);
    expect(() => strictTextAsSent(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(TypeError);
    expect(textAsSent(new Uint8Array([0x7b, 0xff, 0x7d]))).toBe('{\ufffd}');
  });
});
