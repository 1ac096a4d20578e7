import { createHash, hash, type Hash } from 'node:crypto';

export type HmacAlgorithm = 'sha1' | 'sha256' | 'sha512';

/**
 * Up to this many UTF-8 bytes, a started message keeps its prefix as bytes and each finish hashes
 * the whole inner message in one call; beyond it, the prefix is hashed once into a hash state that
 * each finish clones. Measured per try (node 20, 50,000 tries): one call costs about 2-3 µs up to a
 * kilobyte of prefix, a clone 3-4 µs whatever the prefix, and the one call loses from about 1-2 KB
 * (SHA-512 from about 500 bytes).
 */
const ONE_CALL_PREFIX_LIMIT = 1024;

/**
 * The most scratch space a started message keeps beyond its prefix for its suffixes (see finish): a
 * key signs requests for as long as it lives, and one large body must not leave it holding that much.
 */
export const MAX_SCRATCH_BYTES = 192 * 1024;

/** node's util.inspect asks an object for this, and prints what it returns (without loading node:util here). */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** The inner message so far: the keyed pad and a prefix, to be finished with different suffixes. */
export class StartedMessage {
  /**
   * @param bytes the pad and the prefix, then room for a suffix (scratch space each finish overwrites);
   *   empty when `state` is given
   * @param end where the prefix ends in `bytes`
   * @param state the inner hash after the pad and the prefix, for a prefix too long to hash again at
   *   each finish
   */
  constructor(
    public bytes: Buffer,
    readonly end: number,
    readonly state: Hash | undefined,
  ) {}

  /** Shown without its bytes, which begin with the key's pad (see HmacKey's). */
  [INSPECT](): string {
    return 'StartedMessage';
  }

  toJSON(): string {
    return this[INSPECT]();
  }
}

/**
 * HMAC with the keyed pads computed once. Diagnosis tries thousands of messages under one key, many
 * of them sharing a prefix, so each try should cost only the bytes that differ and no more objects
 * than it must: digests travel as strings (a Buffer made by node's crypto costs more than the hashing
 * of a short message) and the outer hash's input is one buffer reused for every try. The sandbox (per
 * merchant) and a run's client (per secret) keep one too, made by sha256Key. Tested against node's
 * createHmac.
 */
export class HmacKey {
  private readonly blockSize: number;
  private readonly innerPad: Buffer;
  private readonly innerState: Hash;
  /** The outer pad followed by the latest inner digest. */
  private readonly outerInput: Buffer;
  private readonly whole: StartedMessage;

  constructor(
    readonly algorithm: HmacAlgorithm,
    secret: string,
  ) {
    this.blockSize = algorithm === 'sha512' ? 128 : 64;
    let key = Buffer.from(secret, 'utf8');
    if (key.length > this.blockSize) key = createHash(algorithm).update(key).digest();
    this.innerPad = Buffer.alloc(this.blockSize, 0x36);
    this.outerInput = Buffer.alloc(this.blockSize + digestLength(algorithm), 0x5c);
    for (let i = 0; i < key.length; i++) {
      this.innerPad[i]! ^= key[i]!;
      this.outerInput[i]! ^= key[i]!;
    }
    this.innerState = createHash(algorithm).update(this.innerPad);
    this.whole = this.start('');
  }

  /** The inner message after `prefix`, to be finished with different suffixes. */
  start(prefix: string): StartedMessage {
    const length = Buffer.byteLength(prefix, 'utf8');
    if (length > ONE_CALL_PREFIX_LIMIT) {
      return new StartedMessage(Buffer.alloc(0), 0, this.innerState.copy().update(prefix, 'utf8'));
    }
    const bytes = Buffer.allocUnsafe(this.blockSize + length + 64);
    this.innerPad.copy(bytes);
    bytes.write(prefix, this.blockSize, 'utf8');
    return new StartedMessage(bytes, this.blockSize + length, undefined);
  }

  /** The HMAC, in hex, of `started`'s prefix followed by `suffix`; `started` stays reusable. */
  finish(started: StartedMessage, suffix: string): string {
    let innerDigest: string;
    if (started.state !== undefined) {
      innerDigest = started.state.copy().update(suffix, 'utf8').digest('binary');
    } else if (3 * suffix.length > MAX_SCRATCH_BYTES) {
      // A suffix this long is hashed on its own: the scratch space, kept for every later finish, stays small.
      innerDigest = createHash(this.algorithm).update(started.bytes.subarray(0, started.end)).update(suffix, 'utf8').digest('binary');
    } else {
      // A UTF-16 code unit takes at most 3 bytes in UTF-8, so this much room never truncates the suffix.
      const room = 3 * suffix.length;
      if (started.bytes.length - started.end < room) {
        // Doubled, so a run of growing suffixes grows it a few times, never past the limit (room is within it).
        const grown = Buffer.allocUnsafe(Math.min(Math.max(started.end + room, 2 * started.bytes.length), started.end + MAX_SCRATCH_BYTES));
        started.bytes.copy(grown, 0, 0, started.end);
        started.bytes = grown;
      }
      const written = started.bytes.write(suffix, started.end, 'utf8');
      innerDigest = hash(this.algorithm, started.bytes.subarray(0, started.end + written), 'binary');
    }
    // 'binary' is node's name for latin1, one character a byte: the digest crosses as a string and back.
    this.outerInput.write(innerDigest, this.blockSize, 'binary');
    return hash(this.algorithm, this.outerInput, 'hex');
  }

  /** Shown as its hash alone: its pads are the key's bytes, masked, and its scratch holds the last message. */
  [INSPECT](): string {
    return `HmacKey <${this.algorithm}>`;
  }

  toJSON(): string {
    return this[INSPECT]();
  }

  /** The HMAC of `message`, in hex. */
  digest(message: string): string {
    return this.finish(this.whole, message);
  }
}

export function digestLength(algorithm: HmacAlgorithm): number {
  return algorithm === 'sha1' ? 20 : algorithm === 'sha256' ? 32 : 64;
}
