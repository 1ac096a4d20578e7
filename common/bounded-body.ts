// A body whose sender the kit does not control, read with memory and time bounded by the reader,
// not the sender: one rule for every such read.
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
  /** Once reading stops: destroy the stream, or pause it for a server that still answers on it (the sandbox). */
  onStop?: 'destroy' | 'pause';
}

export function readBounded(stream: Readable, { keep, stopAfter, onStop = 'destroy' }: BodyLimits): Promise<BoundedBody> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let receivedBytes = 0;
    // What was read, `stopped` saying whether reading stopped before the end.
    const body = (stopped: boolean): BoundedBody => ({
      kept: Buffer.concat(kept, keptBytes),
      receivedBytes,
      cut: receivedBytes > keptBytes,
      stopped,
    });
    const onData = (chunk: Buffer) => {
      receivedBytes += chunk.length;
      if (keptBytes < keep) {
        const part = chunk.length <= keep - keptBytes ? chunk : chunk.subarray(0, keep - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
      if (receivedBytes <= stopAfter) return;
      stream.off('data', onData);
      resolve(body(true));
      if (onStop === 'destroy') stream.destroy();
      else stream.pause();
    };
    stream.on('data', onData);
    stream.on('end', () => resolve(body(false)));
    // A promise settles once: an error after the body was read (destroy may emit one) is heard and dropped.
    stream.on('error', reject);
    // A stream closed with neither an end nor an error (a peer gone) would otherwise be waited on forever.
    stream.on('close', () => reject(new Error('the body ended before it was complete')));
  });
}
