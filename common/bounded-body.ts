// Reading a body whose sender the kit does not control (a target's answer, a receiver's answer, a
// delivery to the kit's listener, a request to the sandbox) with memory and time bounded by the
// reader, not the sender: one rule for every such read.
import type { Readable } from 'node:stream';

export interface BoundedBody {
  /** The first `keep` bytes, as received. */
  kept: Buffer;
  /** Bytes received in all, kept or not. */
  receivedBytes: number;
  /** More came than was kept. */
  cut: boolean;
  /** More than `stopAfter` bytes came, so reading stopped: the body may have been longer still (or endless). */
  stopped: boolean;
}

export interface BodyLimits {
  /** How many bytes to keep; the rest is counted and dropped. */
  keep: number;
  /** Past this many bytes in all, reading stops. A body of exactly this size is read whole. */
  stopAfter: number;
  /**
   * What becomes of the stream once reading stops: destroyed (the connection dropped), or paused,
   * for a server that still answers on the connection and drops it after (the sandbox).
   */
  onStop?: 'destroy' | 'pause';
}

/**
 * A body's bytes as they arrive, within the limits: the first `keep` kept, every one counted. The
 * one account of a bounded read, for a stream (readBounded) and for an answer undici hands over
 * chunk by chunk (suites/dispatch.ts).
 */
export class BoundedCollector {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private receivedBytes = 0;

  constructor(private readonly limits: Pick<BodyLimits, 'keep' | 'stopAfter'>) {}

  /** Takes a chunk; true once more than `stopAfter` bytes have come, when reading must stop. */
  add(chunk: Buffer): boolean {
    const { keep, stopAfter } = this.limits;
    this.receivedBytes += chunk.length;
    if (this.keptBytes < keep) {
      // A chunk kept whole is kept as it is: no view of it built per chunk.
      const part = chunk.length <= keep - this.keptBytes ? chunk : chunk.subarray(0, keep - this.keptBytes);
      this.kept.push(part);
      this.keptBytes += part.length;
    }
    return this.receivedBytes > stopAfter;
  }

  /** What was read, `stopped` saying whether reading stopped before the end. */
  body(stopped: boolean): BoundedBody {
    const { keptBytes, receivedBytes } = this;
    return { kept: Buffer.concat(this.kept, keptBytes), receivedBytes, cut: receivedBytes > keptBytes, stopped };
  }
}

export function readBounded(stream: Readable, limits: BodyLimits): Promise<BoundedBody> {
  return new Promise((resolve, reject) => collectBounded(stream, limits, resolve, reject));
}

/**
 * readBounded told through callbacks: exactly one of them is called, once. For a reader that would
 * otherwise make a promise per body only to wait for it (the sandbox, for every request it serves).
 */
export function collectBounded(
  stream: Readable,
  { keep, stopAfter, onStop = 'destroy' }: BodyLimits,
  done: (body: BoundedBody) => void,
  failed: (error: unknown) => void,
): void {
  const collector = new BoundedCollector({ keep, stopAfter });
  let settled = false;
  const settle = (stopped: boolean) => {
    if (settled) return;
    settled = true;
    done(collector.body(stopped));
  };
  const onData = (chunk: Buffer) => {
    if (collector.add(chunk)) {
      stream.off('data', onData);
      settle(true);
      if (onStop === 'destroy') stream.destroy();
      else stream.pause();
    }
  };
  stream.on('data', onData);
  // `on`, not `once`: each fires at most once anyway, and settling twice is a no-op; `once` wraps every listener.
  stream.on('end', () => settle(false));
  // Kept after settling: destroying a stream may emit an error, which must not go unheard.
  stream.on('error', (error) => {
    if (!settled) {
      settled = true;
      failed(error);
    }
  });
  // A stream closed with neither an end nor an error (a peer gone) would otherwise be waited on forever.
  stream.on('close', () => {
    if (!settled) {
      settled = true;
      failed(new Error('the body ended before it was complete'));
    }
  });
}
