import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBounded } from './bounded-body.js';

/** A stream of the given chunks, one per turn of the event loop (a sender that trickles). */
function trickle(chunks: readonly Buffer[], then: 'end' | 'error' | 'close' = 'end'): Readable {
  let next = 0;
  const stream = new Readable({
    read() {
      setImmediate(() => {
        if (next < chunks.length) this.push(chunks[next++]);
        else if (then === 'end') this.push(null);
        else if (then === 'error') this.destroy(new Error('peer reset'));
        else this.destroy();
      });
    },
  });
  return stream;
}
const bytes = (n: number, fill = 'a') => Buffer.alloc(n, fill);

describe('readBounded: one rule for reading a body the kit does not control', () => {
  it('a body exactly at the cap is read whole: neither cut nor stopped', async () => {
    const body = await readBounded(trickle([bytes(6), bytes(4)]), { keep: 10, stopAfter: 10 });
    expect(body).toEqual({ kept: bytes(10), receivedBytes: 10, cut: false, stopped: false });
  });

  it('one byte past the cap stops reading and drops the stream', async () => {
    const stream = trickle([bytes(6), bytes(5), bytes(100)]);
    const body = await readBounded(stream, { keep: 10, stopAfter: 10 });
    expect(body).toEqual({ kept: bytes(10), receivedBytes: 11, cut: true, stopped: true });
    expect(stream.destroyed).toBe(true);
  });

  it('keeps only `keep` bytes of a long body it reads to its end, counting the rest', async () => {
    const chunks = Array.from({ length: 50 }, (_, i) => bytes(10, String.fromCharCode(97 + (i % 26))));
    const body = await readBounded(trickle(chunks), { keep: 25, stopAfter: 1000 });
    expect(body.kept.toString()).toBe('aaaaaaaaaabbbbbbbbbbccccc');
    expect(body).toMatchObject({ receivedBytes: 500, cut: true, stopped: false });
  });

  it('stops an endless trickle of single bytes once past the cap, whatever the pace', async () => {
    const endless = new Readable({
      read() {
        setImmediate(() => this.push(bytes(1)));
      },
    });
    const body = await readBounded(endless, { keep: 4, stopAfter: 64 });
    expect(body).toMatchObject({ receivedBytes: 65, cut: true, stopped: true });
    expect(endless.destroyed).toBe(true);
  });

  it('pauses rather than drops the stream when asked (a server that still answers on the connection)', async () => {
    const stream = trickle([bytes(8), bytes(8), bytes(8)]);
    const body = await readBounded(stream, { keep: 10, stopAfter: 10, onStop: 'pause' });
    expect(body.stopped).toBe(true);
    expect(stream.destroyed).toBe(false);
    expect(stream.isPaused()).toBe(true);
    stream.destroy();
  });

  it('fails on a stream that errors, or closes without ending: never waits forever', async () => {
    await expect(readBounded(trickle([bytes(3)], 'error'), { keep: 10, stopAfter: 10 })).rejects.toThrow('peer reset');
    await expect(readBounded(trickle([bytes(3)], 'close'), { keep: 10, stopAfter: 10 })).rejects.toThrow(/ended before/);
  });
});
