import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HmacKey, type HmacAlgorithm } from './hmac.js';

describe('HmacKey', () => {
  it.each<HmacAlgorithm>(['sha1', 'sha256', 'sha512'])('matches node createHmac (%s), keys longer than a block included', (algorithm) => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 200, unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        fc.string(),
        (secret, prefix, suffix) => {
          const key = new HmacKey(algorithm, secret);
          const expected = createHmac(algorithm, secret)
            .update(prefix + suffix)
            .digest();
          const started = key.start(prefix);
          expect(key.finish(started, suffix).equals(expected)).toBe(true);
          // The started state is reusable for another suffix.
          expect(key.finish(started, suffix).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
