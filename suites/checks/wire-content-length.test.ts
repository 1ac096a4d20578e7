// HTTP-CONTENT-LENGTH (P-HTTP-3) against small loopback servers that each break, or leave unseen, one
// condition: what the check sends, what it judges, and why it fails or is not judged. Its raw HTTP
// client alone: suites/raw-http.test.ts. Silence is timed on a manual clock, never waited for.
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../../core/clock-test-support.js';
import type { Check } from '../check.js';
import type { TargetConfig } from '../config.js';
import { listenOnLoopback } from '../loopback-test-support.js';
import { judge, type Judged, type Server } from './made-up-server-test-support.js';
import { contentLength } from './wire.js';

const SILENCE_MS = 150;
let clock: ManualClock;
beforeEach(() => {
  clock = manualClock();
});
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** One request as the server read it. */
interface Asked {
  path: string;
  body: string;
  /** It asked for Connection: close. */
  close: boolean;
}

/**
 * What the server does with a request: answers these bytes (closing the connection after them when
 * the request asked for that), hangs up without an answer, or answers and then falls silent, neither
 * closing nor sending more, while the clock moves past the kit's silence timeout.
 */
type Answer = Buffer | 'hang up' | { silent: Buffer };

/** A loopback server answering each request on a connection as `answer` says; its base URL. */
async function serve(answer: (asked: Asked) => Answer): Promise<string> {
  const server = createServer((socket) => {
    let pending = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const body = pending.subarray(end + 4, end + 4 + length).toString('utf8');
        pending = pending.subarray(end + 4 + length);
        const asked = { path: head.split(' ')[1] ?? '', body, close: /\r\nconnection: *close/i.test(head) };
        const reply = answer(asked);
        if (reply === 'hang up') socket.destroy();
        else if (Buffer.isBuffer(reply)) socket.write(reply, () => void (asked.close && socket.end()));
        // Once written and read, time passes with nothing more on the wire.
        else
          socket.write(
            reply.silent,
            () =>
              void turn()
                .then(turn)
                .then(() => clock.advance(SILENCE_MS)),
          );
      }
    });
  });
  return listenOnLoopback(server, closers);
}

/** An answer with a Content-Length of `said` (default: the body's bytes; null: none). */
function http(status: number, body: string, said: number | string | null = Buffer.byteLength(body), more = ''): Buffer {
  const length = said === null ? '' : `Content-Length: ${said}\r\n`;
  return Buffer.from(`HTTP/1.1 ${status} X\r\nContent-Type: application/json\r\n${length}${more}\r\n${body}`, 'utf8');
}

/** The order_id a request holds, or undefined when its body is no JSON or holds none. */
function orderIdOf(asked: Asked): unknown {
  try {
    return (JSON.parse(asked.body) as { order_id?: unknown }).order_id;
  } catch {
    return undefined;
  }
}

/** The answer of a target that follows P-HTTP-3: each order echoed with its order_id as text, invalid JSON refused. */
function echoing(asked: Asked, said?: (body: string) => number | string | null): Buffer {
  const id = orderIdOf(asked);
  const body =
    id === undefined
      ? JSON.stringify({ status: false, code: 400, message: 'invalid JSON' })
      : JSON.stringify({ status: true, code: 201, message: 'ok', data: { order_id: id } });
  return http(id === undefined ? 400 : 201, body, said === undefined ? Buffer.byteLength(body) : said(body));
}

const readToClose = (asked: Asked) => asked.close && asked.body.includes('Grüße');
const ORDER_STATUS = '/api/v3/pg/order/status';

/** HTTP-CONTENT-LENGTH against the server at `url`, with Order Status where `edit` leaves it; a lone Create Order answers `alone`. */
function judged(url: string, edit: (config: TargetConfig) => void = () => {}, alone: Server = () => 201): Promise<Judged> {
  const check: Check = {
    id: 'http-content-length',
    requirement: 'HTTP-CONTENT-LENGTH',
    title: 'Content-Length',
    run: (ctx) => contentLength(ctx, { timeoutMs: SILENCE_MS, clock }),
  };
  return judge(check, alone, (config) => {
    config.baseUrl = url;
    edit(config);
  });
}
const withoutOrderStatus = (config: TargetConfig) => void delete config.profile!.operations!.orderStatus;

const NOT_JUDGED =
  'skipped: not judged: no answer that said its Content-Length held non-ASCII text (the order_id was refused, or escaped as \\u), so a count of characters cannot be told from one of bytes';

describe('what HTTP-CONTENT-LENGTH reads to the close', () => {
  it('a Create Order whose non-ASCII order_id is echoed and counted in bytes: passed, with no Order Status configured', async () => {
    const asked: string[] = [];
    const url = await serve((a) => (asked.push(a.path), echoing(a)));
    expect((await judged(url, withoutOrderStatus)).outcome).toBe('passed');
    expect(asked.filter((path) => path === ORDER_STATUS)).toEqual([]);
  });

  it('the Order Status of that order, by its order_id, when configured as a POST: a count of characters there fails', async () => {
    const url = await serve((a) => echoing(a, a.path === ORDER_STATUS && orderIdOf(a) !== undefined ? (body) => body.length : undefined));
    expect((await judged(url)).failure?.message).toMatch(
      /^Order Status of that order, read to the close: Content-Length says \d+ but \d+ bytes came before the connection closed/,
    );
  });

  it('an Order Status configured as a GET is not asked', async () => {
    const asked: string[] = [];
    const url = await serve((a) => (asked.push(a.path), echoing(a)));
    const get = (config: TargetConfig) => void (config.profile!.operations!.orderStatus = { method: 'GET', path: ORDER_STATUS });
    expect((await judged(url, get)).outcome).toBe('passed');
    expect(asked.filter((path) => path === ORDER_STATUS)).toEqual([]);
  });

  it.each([
    ['no Content-Length (the body ends at the close)', (a: Asked) => (readToClose(a) ? echoing(a, () => null) : echoing(a))],
    ['the order_id escaped as \\u', (a: Asked) => (readToClose(a) ? http(201, '{"order_id":"CL-Gr\\u00fc\\u00dfe-\\u2713"}') : echoing(a))],
    ['ASCII but for a DEL byte (0x7f)', (a: Asked) => (readToClose(a) ? http(201, '{"order_id":"CL-\u007f"}') : echoing(a))],
  ])('an answer with %s: not judged, saying why', async (_, answer) => {
    const url = await serve(answer);
    expect((await judged(url)).outcome).toBe(NOT_JUDGED);
  });

  it('a Content-Length that is no number is shown quoted, never taken for a count', async () => {
    const url = await serve((a) => (readToClose(a) ? echoing(a, () => 'five') : echoing(a)));
    expect((await judged(url, withoutOrderStatus)).failure?.message).toMatch(
      /^Create Order with a non-ASCII order_id, read to the close: Content-Length says "five" but \d+ bytes came/,
    );
  });

  it('a connection closed with no answer: failed', async () => {
    const url = await serve((a) => (readToClose(a) ? 'hang up' : echoing(a)));
    expect((await judged(url, withoutOrderStatus)).failure?.message).toBe(
      'Create Order with a non-ASCII order_id, read to the close: no complete HTTP answer came before the connection closed',
    );
  });

  it('answers cut short on connections that stay open: not judged, each saying why', async () => {
    const url = await serve((a) => (readToClose(a) ? { silent: http(201, '{"order_id":', 50) } : echoing(a)));
    const outcome = (await judged(url)).outcome;
    expect(outcome.startsWith(`${NOT_JUDGED}; Create Order with a non-ASCII order_id, read to the close: `)).toBe(true);
    expect(outcome).toMatch(/[^;]; Order Status of that order, read to the close: [^;]+$/);
  });
});

describe('whether a connection stays usable after an error answer', () => {
  const invalid = (a: Asked) => a.body === '{"order_id":';

  it('an error answer that says Connection: close is not asked to take another request', async () => {
    const url = await serve((a) => (invalid(a) ? http(400, '{}', 2, 'Connection: close\r\n') : echoing(a)));
    expect((await judged(url, withoutOrderStatus)).outcome).toBe('passed');
  });

  it('closed with no answer to the second request, though the error did not say Connection: close: failed', async () => {
    let afterError = false;
    const url = await serve((a) => {
      if (invalid(a)) return ((afterError = true), echoing(a));
      return afterError ? 'hang up' : echoing(a);
    });
    expect((await judged(url, withoutOrderStatus)).failure?.message).toBe(
      'after an error answer without Connection: close, the connection did not take another request (P-HTTP-3)',
    );
  });

  it('the second answer cut short on a connection that stays open: not judged', async () => {
    let afterError = false;
    const url = await serve((a) => {
      if (invalid(a)) return ((afterError = true), echoing(a));
      return afterError ? { silent: http(201, '{"order_id":', 50) } : echoing(a);
    });
    expect((await judged(url, withoutOrderStatus)).outcome).toMatch(
      /^skipped: not judged: whether a connection stays usable after an error answer: Create Order on the same connection, after the error: /,
    );
  });

  it('a 101 Switching Protocols, never asked for, to the second request: failed; a 100 Continue before its answer: passed', async () => {
    const second = (interim: string, then = '') => {
      let afterError = false;
      return serve((a) => {
        if (invalid(a)) return ((afterError = true), echoing(a));
        return afterError ? Buffer.concat([Buffer.from(`HTTP/1.1 ${interim}\r\n\r\n${then}`), echoing(a)]) : echoing(a);
      });
    };
    const switched = await judged(await second('101 Switching Protocols', 'binary'), withoutOrderStatus);
    expect(switched.failure?.message).toMatch(/the next request there was answered HTTP 101, though alone it is created/);
    expect((await judged(await second('100 Continue'), withoutOrderStatus)).outcome).toBe('passed');
  });

  it('a 300 to the second request, which alone is created: failed', async () => {
    let afterError = false;
    const url = await serve((a) => {
      if (invalid(a)) return ((afterError = true), echoing(a));
      return afterError ? http(300, '{}') : echoing(a);
    });
    expect((await judged(url, withoutOrderStatus)).failure?.message).toMatch(
      /the next request there was answered HTTP 300, though alone it is created/,
    );
  });
});
