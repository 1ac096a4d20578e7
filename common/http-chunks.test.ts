// The chunked-body reader (RFC 9112 §7.1) against bodies encoded here: its end is found only by
// walking the chunks, whatever their data holds, with trailers, extensions and zero-padded sizes,
// and a body that arrives in pieces is read on from where each piece left off.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkedReader, readChunked } from './http-chunks.js';

interface Encoding {
  chunks: Buffer[];
  /** What follows each size (the last chunk's too): an extension, whitespace, or nothing. */
  afterSize: string[];
  /** Leading zeros of each size. */
  zeros: number[];
  trailers: string[];
  upperHex: boolean;
}

function encode({ chunks, afterSize, zeros, trailers, upperHex }: Encoding): Buffer {
  const size = (n: number, i: number) => {
    const hex = '0'.repeat(zeros[i] ?? 0) + n.toString(16);
    return (upperHex ? hex.toUpperCase() : hex) + (afterSize[i] ?? '');
  };
  const parts = chunks.flatMap((chunk, i) => [Buffer.from(`${size(chunk.length, i)}\r\n`), chunk, Buffer.from('\r\n')]);
  const last = `${size(0, chunks.length)}\r\n${trailers.map((t) => `${t}\r\n`).join('')}\r\n`;
  return Buffer.concat([...parts, Buffer.from(last)]);
}

/** Chunk data made mostly of the bytes a search for the last chunk trips on. */
const trickyBytes = fc
  .array(fc.constantFrom('0', '\r', '\n', '\r\n', '0\r\n\r\n', 'a', 'é'), { minLength: 1, maxLength: 12 })
  .map((parts) => Buffer.from(parts.join(''), 'utf8'));

const encodings: fc.Arbitrary<Encoding> = fc.record({
  chunks: fc.array(
    fc.oneof(
      trickyBytes,
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b)),
    ),
    { maxLength: 6 },
  ),
  afterSize: fc.array(fc.constantFrom('', ';x=1', ' ;name="v; w"', ';a', ' '), { maxLength: 7 }),
  zeros: fc.array(fc.nat(20), { maxLength: 7 }),
  // An obs-fold continuation line among them: a trailer line of its own to the framing.
  trailers: fc.array(fc.constantFrom('X-Checksum: 1f', 'Expires: 0', 'a:', ' folded on'), { maxLength: 3 }),
  upperHex: fc.boolean(),
});

describe('readChunked', () => {
  it('finds the end of any chunked body, and its data, whatever the data holds', () => {
    fc.assert(
      fc.property(encodings, fc.uint8Array({ maxLength: 8 }), (encoding, after) => {
        const body = encode(encoding);
        const read = readChunked(Buffer.concat([Buffer.from('HEAD'), body, after]), 4);
        expect(read).toEqual({ state: 'complete', data: Buffer.concat(encoding.chunks), end: 4 + body.length });
      }),
    );
  });

  it('waits for more at every cut short of the end, never calling a body complete or malformed too early', () => {
    fc.assert(
      fc.property(encodings, fc.nat(), (encoding, at) => {
        const body = encode(encoding);
        const cut = at % body.length;
        const read = readChunked(body.subarray(0, cut));
        expect(read.state).toBe('incomplete');
        // What came of the data is a prefix of the data.
        expect(Buffer.concat(encoding.chunks).subarray(0, read.data.length)).toEqual(read.data);
      }),
    );
  });

  it('a body that arrives in pieces, read on by one reader as each comes, ends where a whole read ends', () => {
    fc.assert(
      fc.property(encodings, fc.array(fc.nat(), { maxLength: 12 }), (encoding, cuts) => {
        const body = encode(encoding);
        const ends = [...new Set(cuts.map((cut) => cut % body.length))].sort((a, b) => a - b);
        const reader = new ChunkedReader();
        for (const end of ends) expect(reader.read(Buffer.from(body.subarray(0, end))).state).toBe('incomplete');
        // A new buffer each time, as a connection's grows: the reader keeps offsets, not views.
        const whole = Buffer.from(body);
        expect(reader.read(whole)).toEqual({ state: 'complete', end: body.length });
        expect(reader.data(whole)).toEqual(Buffer.concat(encoding.chunks));
      }),
    );
  });

  it('a body whose data holds "0\\r\\n\\r\\n" ends at its last chunk, not there', () => {
    const body = Buffer.from('5\r\n400\r\n\r\n1\r\n}\r\n0\r\n\r\n');
    expect(readChunked(body)).toEqual({ state: 'complete', data: Buffer.from('400\r\n}'), end: body.length });
  });

  it('a body with trailer fields ends after them', () => {
    const body = Buffer.from('2\r\nok\r\n0\r\nX-Checksum: 1f\r\n\r\n');
    expect(readChunked(Buffer.concat([body, Buffer.from('HTTP/1.1 200 OK')]))).toEqual({
      state: 'complete',
      data: Buffer.from('ok'),
      end: body.length,
    });
  });

  it('sizes padded with zeros are sizes (1*HEXDIG), however long the padding', () => {
    const body = Buffer.from(`${'0'.repeat(20)}5\r\nhello\r\n${'0'.repeat(16)}\r\n\r\n`);
    expect(readChunked(body)).toEqual({ state: 'complete', data: Buffer.from('hello'), end: body.length });
  });

  it('says a body is malformed where no end can be found, with the data before', () => {
    expect(readChunked(Buffer.from('2\r\nok\r\nzz\r\n'))).toMatchObject({
      state: 'malformed',
      data: Buffer.from('ok'),
      problem: /"zz" is not a hex size/,
    });
    expect(readChunked(Buffer.from('2\r\nokay\r\n0\r\n\r\n'))).toMatchObject({
      state: 'malformed',
      problem: /2 bytes is not followed by CRLF/,
    });
    expect(readChunked(Buffer.from(`1${'0'.repeat(13)}\r\n`))).toMatchObject({ state: 'malformed' });
    expect(readChunked(Buffer.from('-1\r\n'))).toMatchObject({ state: 'malformed' });
    expect(readChunked(Buffer.from(' 1\r\n'))).toMatchObject({ state: 'malformed' });
    expect(readChunked(Buffer.from('\r\n'))).toMatchObject({ state: 'malformed' });
  });

  it('a size line of a million zeros and a letter is malformed, found in one pass (no regular expression that backtracks over it)', () => {
    expect(readChunked(Buffer.from(`${'0'.repeat(1_000_000)}x\r\n`))).toMatchObject({ state: 'malformed' });
    expect(readChunked(Buffer.from(`${'0'.repeat(1_000_000)}5\r\nhello\r\n0\r\n\r\n`))).toMatchObject({
      state: 'complete',
      data: Buffer.from('hello'),
    });
  });

  it('quotes a size line in its problem whole or not at all: a cut could keep part of a secret the redactor no longer sees', () => {
    const secret = `sk_test_${'s3cr3t'.repeat(6)}`;
    const read = readChunked(Buffer.from(`zz ${secret}\r\n`));
    expect(read).toMatchObject({ state: 'malformed', problem: `the chunk size line of ${secret.length + 3} characters is not a hex size` });
    expect((read as { problem: string }).problem).not.toContain('sk_test_');
    // Short, but a text JSON would escape (so a redactor would not know it): by its length too.
    expect(readChunked(Buffer.from('z"\\\r\n'))).toMatchObject({ problem: 'the chunk size line of 3 characters is not a hex size' });
    expect(readChunked(Buffer.from('zz;x\r\n'))).toMatchObject({ problem: 'the chunk size line "zz;x" is not a hex size' });
  });
});
