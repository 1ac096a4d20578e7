import { createHash, type Hash } from 'node:crypto';

export type HmacAlgorithm = 'sha1' | 'sha256' | 'sha512';

/**
 * HMAC with the keyed pads hashed once. Diagnosis tries thousands of messages under one key, and
 * many messages that share a prefix; cloning a hash state (`Hash.copy`) after the pad, or after a
 * shared prefix, makes each try cost only the bytes that differ. Tested against node's createHmac.
 */
export class HmacKey {
  private readonly inner: Hash;
  private readonly outer: Hash;

  constructor(
    readonly algorithm: HmacAlgorithm,
    secret: string,
  ) {
    const blockSize = algorithm === 'sha512' ? 128 : 64;
    let key = Buffer.from(secret, 'utf8');
    if (key.length > blockSize) key = createHash(algorithm).update(key).digest();
    const inner = Buffer.alloc(blockSize, 0x36);
    const outer = Buffer.alloc(blockSize, 0x5c);
    for (let i = 0; i < key.length; i++) {
      inner[i]! ^= key[i]!;
      outer[i]! ^= key[i]!;
    }
    this.inner = createHash(algorithm).update(inner);
    this.outer = createHash(algorithm).update(outer);
  }

  /** The inner hash after `prefix`, to be finished with different suffixes. */
  start(prefix: string): Hash {
    return this.inner.copy().update(prefix, 'utf8');
  }

  /** Finishes a copy of `started` with `suffix`; `started` stays reusable. */
  finish(started: Hash, suffix: string): Buffer {
    const innerDigest = started.copy().update(suffix, 'utf8').digest();
    return this.outer.copy().update(innerDigest).digest();
  }

  digest(message: string): Buffer {
    return this.finish(this.start(''), message);
  }
}

export function digestLength(algorithm: HmacAlgorithm): number {
  return algorithm === 'sha1' ? 20 : algorithm === 'sha256' ? 32 : 64;
}
