import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HmacKey, MAX_SCRATCH_BYTES, type HmacAlgorithm } from './hmac.js';

/** Any code point, lone surrogates included: most take 4 bytes in UTF-8, some 1, 2 or 3. */
const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((n) => String.fromCodePoint(n));
const text = (minLength: number, maxLength: number) => fc.string({ unit: codePoint, minLength, maxLength });

/** Many ASCII characters, then any text: long values that fast-check can still shrink quickly. */
const long = (minLength: number, maxLength: number) =>
  fc.tuple(fc.integer({ min: minLength, max: maxLength }), text(0, 8)).map(([n, tail]) => 'x'.repeat(n) + tail);

// Empty, within a block, and longer than any block (SHA-512's is 128 bytes), where HMAC hashes the key.
const secrets = fc.oneof(fc.constant(''), text(1, 30), long(130, 200));
// Prefixes short and long, on both sides of the length (1,024 bytes) where HmacKey stops rehashing
// the prefix at each finish and clones a hash state instead.
const prefixes = fc.oneof(text(0, 40), long(990, 1060));
// Suffixes longer than the room a started message keeps for them, too.
const suffixes = fc.array(fc.oneof(text(0, 12), text(20, 60)), { minLength: 1, maxLength: 3 });

describe('HmacKey', () => {
  it.each<HmacAlgorithm>(['sha1', 'sha256', 'sha512'])('matches node createHmac (%s)', (algorithm) => {
    fc.assert(
      fc.property(secrets, prefixes, suffixes, (secret, prefix, suffixList) => {
        const key = new HmacKey(algorithm, secret);
        const expected = (message: string) => createHmac(algorithm, secret).update(message, 'utf8').digest('hex');
        const started = key.start(prefix);
        // Twice over, so each suffix is finished after the others: a started message stays reusable.
        return [...suffixList, ...suffixList].every(
          (suffix) =>
            key.finish(started, suffix) === expected(prefix + suffix) && key.digest(prefix + suffix) === expected(prefix + suffix),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('keeps its scratch space within the limit over suffixes growing up to it, signing each as node does', () => {
    const key = new HmacKey('sha256', 'sk_test_scratch');
    const started = key.start('{"prefix":1}');
    for (let length = 1_000; 3 * length <= MAX_SCRATCH_BYTES; length = Math.ceil(length * 1.6)) {
      const text = 'y'.repeat(length);
      expect(key.finish(started, text)).toBe(createHmac('sha256', 'sk_test_scratch').update(`{"prefix":1}${text}`).digest('hex'));
      expect(key.digest(text)).toBe(createHmac('sha256', 'sk_test_scratch').update(text).digest('hex'));
      expect(started.bytes.length - started.end).toBeLessThanOrEqual(MAX_SCRATCH_BYTES);
    }
  });

  it('shows neither its pads nor its last message when inspected or serialized', () => {
    const key = new HmacKey('sha256', 'sk_test_inspected');
    const started = key.start('{"secret_looking":"sk_test_inspected"}');
    key.finish(started, '1700000000');
    for (const shown of [inspect(key, { depth: 10, showHidden: true }), inspect(started), JSON.stringify({ key, started })]) {
      expect(shown).not.toMatch(/sk_test|Buffer|<Buffer|\d{2} \d{2}/);
    }
    expect(inspect(key)).toBe('HmacKey <sha256>');
  });

  it('signs a text longer than its scratch space as node does, without growing the space to it', () => {
    const key = new HmacKey('sha256', 'sk_test_scratch');
    const started = key.start('{"prefix":1}');
    const short = 'x'.repeat(1_000);
    expect(key.finish(started, short)).toBe(createHmac('sha256', 'sk_test_scratch').update(`{"prefix":1}${short}`).digest('hex'));
    const grown = started.bytes.length;
    for (const length of [MAX_SCRATCH_BYTES / 3 + 1, 1_000_000]) {
      const text = `${'é'.repeat(length - 1)}z`;
      expect(key.finish(started, text)).toBe(createHmac('sha256', 'sk_test_scratch').update(`{"prefix":1}${text}`).digest('hex'));
      expect(key.digest(text)).toBe(createHmac('sha256', 'sk_test_scratch').update(text).digest('hex'));
    }
    expect(started.bytes.length).toBe(grown);
  });
});
