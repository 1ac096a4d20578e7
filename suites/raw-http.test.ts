// The hand-written HTTP of HTTP-CONTENT-LENGTH (suites/raw-http.ts) against small loopback servers:
// it goes where TargetClient goes (the base URL's own path first), hides the signature wherever a
// server echoes it, and judges an answer that came whole even when the connection stays open.
// The kit's silence timeout runs on a manual clock: it ends a wait only when a server here has gone
// silent, never because this process was slow to read what a server wrote.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../core/clock-test-support.js';
import { listenOnLoopback } from './loopback-test-support.js';
import type { Check, CheckContext } from './check.js';
import { sandboxTarget } from './check-test-support.js';
import { contentLength } from './checks/wire.js';
import { postReadToClose, type RawOptions, type RawRequest } from './raw-http.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** The kit's silence timeout in these tests (ms of the manual clock). */
const SILENCE_MS = 150;
let clock: ManualClock;
let raw: RawOptions;
beforeEach(() => {
  clock = manualClock();
  raw = { timeoutMs: SILENCE_MS, clock };
});

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Listens on loopback; closed after the test, with every socket it holds. */
const listen = (server: Server) => listenOnLoopback(server, closers);

/** Runs `body` with a check context whose base URL is `baseUrl` (the sandbox behind it is unused unless proxied to). */
async function withContext(
  baseUrl: (sandboxUrl: string) => Promise<string> | string,
  body: (ctx: CheckContext) => Promise<void>,
): Promise<{ outcome: string; why?: string }> {
  let url = '';
  const target = await sandboxTarget(
    {},
    (config) => {
      url = config.baseUrl;
      return config;
    },
    3,
  );
  try {
    target.state.settings.config.baseUrl = await baseUrl(url);
    const check: Check = { id: 'raw-http-probe', requirement: 'HTTP-CONTENT-LENGTH', title: 'probe', run: body };
    const { outcome, meta } = await target.run(check);
    const why = meta.failure?.message ?? meta.skipped ?? meta.error?.message;
    return { outcome, ...(why !== undefined ? { why } : {}) };
  } finally {
    await target.close();
  }
}

/** A front that serves the sandbox only under /gw (as a gateway mounts an API), 404 everywhere else; the paths it saw. */
async function prefixedFront(upstream: string, seen: string[]): Promise<string> {
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push(req.url ?? '');
    if (!(req.url ?? '').startsWith('/gw/')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: false, code: 404, message: 'not under /gw' }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v;
    const answer = await fetch(upstream + (req.url ?? '').slice('/gw'.length), {
      method: req.method!,
      headers,
      ...(req.method === 'GET' ? {} : { body: Buffer.concat(chunks) }),
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) out[k] = v;
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, { ...out, 'content-length': String(bytes.length) });
    res.end(bytes);
  };
  const server = createHttpServer((req, res) => void forward(req, res));
  return listen(server);
}

describe('the raw requests go where TargetClient goes', () => {
  it("a base URL with a path (https://host/gw) is kept: HTTP-CONTENT-LENGTH posts under it, never to the host's root", async () => {
    const seen: string[] = [];
    const ended = await withContext(
      async (sandboxUrl) => `${await prefixedFront(sandboxUrl, seen)}/gw`,
      (ctx) => contentLength(ctx),
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((path) => !path.startsWith('/gw/'))).toEqual([]);
    expect(ended).toEqual({ outcome: 'passed' });
  }, 30_000);
});

describe('the evidence never shows the signature', () => {
  it('a server that echoes X-SIGNATURE in a header and in its body (in upper case too): hidden in both', async () => {
    const server = createHttpServer((req, res) => {
      const signature = String(req.headers['x-signature']);
      res.writeHead(401, { 'content-type': 'application/json', 'x-signature': signature, 'x-seen': `sig=${signature.toUpperCase()}` });
      res.end(JSON.stringify({ status: false, code: 401, message: `signature ${signature} does not match` }));
    });
    const url = await listen(server);
    const request: RawRequest = { label: 'probe', path: '/api/v3/pg/order/create', body: '{"order_id":"X"}' };
    let text = '';
    const ended = await withContext(
      () => url,
      async (ctx) => {
        const { answer, evidence } = await postReadToClose(ctx, request);
        expect(answer?.status).toBe(401);
        text = JSON.stringify(evidence);
      },
    );
    expect(ended.outcome).toBe('passed');
    expect(request.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(text).not.toContain(request.signature);
    expect(text.toLowerCase()).not.toContain(request.signature);
    expect(text).toContain('[redacted:signature]');
  }, 30_000);
});

const asksForClose = (request: string) => /\r\nConnection: close\r\n/i.test(request);

interface KeepsOpenOptions {
  aByteAtATime?: boolean;
  /** After answering which requests the server falls silent, as far as the kit can tell: default, those that asked for the close. */
  silentAfter?: (request: string) => boolean;
}

/**
 * A server that answers every request on a connection with `answer` and never closes it: a proxy that
 * keeps the connection open after `Connection: close`. Once an answer the kit waits past is written
 * and read, the clock moves on by the kit's silence timeout, as it would on the wire.
 */
async function keepsOpen(
  answer: (n: number, request: string) => Buffer,
  { aByteAtATime = false, silentAfter = asksForClose }: KeepsOpenOptions = {},
): Promise<string> {
  let n = 0;
  const server = createTcpServer({ noDelay: true }, (socket) => {
    let writing = Promise.resolve();
    const send = async (bytes: Buffer) => {
      const pieces = aByteAtATime ? Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)) : [bytes];
      for (const piece of pieces) {
        if (socket.destroyed) return;
        // Each write flushed before the next, a byte at a time in a turn of the event loop of its own.
        await new Promise<void>((resolve) => socket.write(piece, () => resolve()));
        if (aByteAtATime) await turn();
      }
    };
    socket.on('data', (data) => {
      const requests = data
        .toString('latin1')
        .split(/(?=POST \/)/)
        .filter((part) => part.startsWith('POST /'));
      for (const request of requests) {
        const bytes = answer(n++, request);
        writing = writing.then(async () => {
          await send(bytes);
          if (!silentAfter(request)) return;
          // The written bytes are the kit's to read in the next poll of the event loop; then time passes.
          await turn();
          await turn();
          await clock.advance(SILENCE_MS);
        });
      }
    });
  });
  return listen(server);
}

function httpAnswer(status: number, body: string, contentLength = Buffer.byteLength(body)): Buffer {
  return Buffer.from(`HTTP/1.1 ${status} X\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n${body}`, 'utf8');
}

describe('an answer read to the close, from a server that does not close', () => {
  const body = JSON.stringify({ status: true, code: 201, message: 'Grüße ✓', data: { order_id: 'Grüße-✓' } });

  it("the whole answer came (head and Content-Length bytes): its bytes are judged when the kit's own timeout ends the wait", async () => {
    const url = await keepsOpen(() => httpAnswer(201, body));
    const ended = await withContext(
      () => url,
      async (ctx) => {
        const read = await postReadToClose(ctx, { label: 'probe', path: '/x', body: '{}' }, raw);
        expect(read.unjudged).toBeUndefined();
        expect(read.answer?.body.length).toBe(Buffer.byteLength(body));
      },
    );
    expect(ended).toEqual({ outcome: 'passed' });
  }, 30_000);

  it('fewer bytes than Content-Length when the wait ends: not judged, never "no complete answer"', async () => {
    const url = await keepsOpen(() => httpAnswer(201, body, Buffer.byteLength(body) + 50));
    const ended = await withContext(
      () => url,
      async (ctx) => {
        const read = await postReadToClose(ctx, { label: 'probe', path: '/x', body: '{}' }, raw);
        expect(read.answer).toBeUndefined();
        expect(read.unjudged).toMatch(/Content-Length bytes/);
      },
    );
    expect(ended).toEqual({ outcome: 'passed' });
  }, 30_000);

  it('HTTP-CONTENT-LENGTH passes a right byte count, and fails a count of characters, with the connection held open', async () => {
    const right = await keepsOpen(() => httpAnswer(201, body));
    expect(
      await withContext(
        () => right,
        (ctx) => contentLength(ctx, raw),
      ),
    ).toEqual({ outcome: 'passed' });
    const chars = await keepsOpen(() => httpAnswer(201, body, body.length));
    const ended = await withContext(
      () => chars,
      (ctx) => contentLength(ctx, raw),
    );
    expect(ended.outcome).toBe('failed');
    expect(ended.why).toMatch(/Content-Length says \d+ but \d+ bytes came/);
  }, 30_000);
});

describe('an interim 100 Continue or 103 Early Hints before the answer (RFC 9110 §15.2)', () => {
  const body = JSON.stringify({ status: true, code: 201, message: 'Grüße ✓', data: { order_id: 'Grüße-✓' } });
  const interim = (code: string) => Buffer.concat([Buffer.from(`HTTP/1.1 ${code}\r\nLink: </x>\r\n\r\n`), httpAnswer(201, body)]);

  it.each(['100 Continue', '103 Early Hints'])(
    '%s is passed over: the answer after it is the one judged',
    async (code) => {
      const url = await keepsOpen(() => interim(code));
      const ended = await withContext(
        () => url,
        async (ctx) => {
          const read = await postReadToClose(ctx, { label: 'probe', path: '/x', body: '{}' }, raw);
          expect(read.answer?.status).toBe(201);
          expect(read.answer?.body.toString()).toBe(body);
          await contentLength(ctx, raw);
        },
      );
      expect(ended).toEqual({ outcome: 'passed' });
    },
    30_000,
  );
});

describe('a Content-Length sent twice', () => {
  const body = JSON.stringify({ status: true, code: 201, message: 'Grüße ✓', data: { order_id: 'Grüße-✓' } });
  const twice = (first: number, second: number) =>
    Buffer.from(`HTTP/1.1 201 X\r\nContent-Type: application/json\r\nContent-Length: ${first}\r\nContent-Length: ${second}\r\n\r\n${body}`);

  it('with the byte count both times: the count is judged, and HTTP-CONTENT-LENGTH passes', async () => {
    const bytes = Buffer.byteLength(body);
    const url = await keepsOpen(() => twice(bytes, bytes));
    expect(
      await withContext(
        () => url,
        (ctx) => contentLength(ctx, raw),
      ),
    ).toEqual({ outcome: 'passed' });
  }, 30_000);

  it('with the count of characters both times: failed, as sent once', async () => {
    const url = await keepsOpen(() => twice(body.length, body.length));
    const ended = await withContext(
      () => url,
      (ctx) => contentLength(ctx, raw),
    );
    expect(ended.outcome).toBe('failed');
    expect(ended.why).toMatch(/Content-Length says (\d+), \1 but \d+ bytes came/);
  }, 30_000);
});

describe('a chunked answer on a kept-alive connection is walked chunk by chunk to its end', () => {
  const created = JSON.stringify({ status: true, code: 201, message: 'Grüße ✓', data: { order_id: 'Grüße-✓' } });
  const chunked = (lines: string[], last: string, size = (line: string) => Buffer.byteLength(line).toString(16)) =>
    Buffer.from(
      `HTTP/1.1 400 X\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
        lines.map((line) => `${size(line)}\r\n${line}\r\n`).join('') +
        last,
      'utf8',
    );
  // The invalid-JSON error, one chunk per CRLF-ended line: the chunk "  \"code\": 400\r\n" and its own
  // CRLF put "0\r\n\r\n" in the middle of the body, where searching for the last chunk would stop.
  const zeroEnded = ['{\r\n', '  "status": false,\r\n', '  "code": 400\r\n', '  "message": "invalid JSON"\r\n', '}'];
  // No line ends in "0\r\n": only the trailer section stands in the way of a search for "0\r\n\r\n".
  const plain = ['{"status": false, ', '"code": 400, "message": "invalid JSON"}'];

  const invalidJson = (request: string) => request.endsWith('{"order_id":');
  /**
   * Answers the invalid-JSON request with `error`, every other with a Create Order answer; never closes.
   * `cutShort`: the error answer is less than it says, so the kit waits past it too.
   */
  async function server(error: Buffer, { aByteAtATime = false, cutShort = false } = {}): Promise<string> {
    return keepsOpen((_, request) => (invalidJson(request) ? error : httpAnswer(201, created)), {
      aByteAtATime,
      silentAfter: (request) => asksForClose(request) || (cutShort && invalidJson(request)),
    });
  }

  it.each([
    ['whose data holds "0\\r\\n\\r\\n"', chunked(zeroEnded, '0\r\n\r\n')],
    ['that ends with a trailer field', chunked(plain, '0\r\nX-Checksum: 1f\r\n\r\n')],
    ['whose sizes are padded with zeros', chunked(plain, '0000\r\n\r\n', (line) => `0000${Buffer.byteLength(line).toString(16)}`)],
  ])(
    'an error answer %s: the next answer on the connection is read, and HTTP-CONTENT-LENGTH passes',
    async (_, error) => {
      const url = await server(error);
      const ended = await withContext(
        () => url,
        (ctx) => contentLength(ctx, raw),
      );
      expect(ended).toEqual({ outcome: 'passed' });
    },
    30_000,
  );

  it('every answer written a byte at a time: each is framed whole, whichever byte its head, chunk sizes and body end on', async () => {
    const url = await server(chunked(zeroEnded, '0\r\nX-Checksum: 1f\r\n\r\n'), { aByteAtATime: true });
    const ended = await withContext(
      () => url,
      (ctx) => contentLength(ctx, raw),
    );
    expect(ended).toEqual({ outcome: 'passed' });
  }, 30_000);

  it.each([
    ['a Content-Length repeated with one value', '5, 5', 'passed'],
    ['a Content-Length that is not a number', 'five', 'failed'],
    ['two Content-Lengths that disagree', '5, 6', 'failed'],
  ])(
    'an error answer with %s ("%s"): %s',
    async (_, said, outcome) => {
      // Five bytes of body, as the header says where it says anything.
      const url = await server(Buffer.from(`HTTP/1.1 400 X\r\nContent-Type: application/json\r\nContent-Length: ${said}\r\n\r\n{"a":`));
      const ended = await withContext(
        () => url,
        (ctx) => contentLength(ctx, raw),
      );
      expect(ended.outcome).toBe(outcome);
      if (outcome === 'failed') expect(ended.why).toMatch(/no complete HTTP answer \(Content-Length "[^"]+" is not a number of bytes\)/);
    },
    30_000,
  );

  it.each([
    [
      'with more Content-Length than it sends, the connection held open',
      Buffer.from('HTTP/1.1 400 X\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"a":1}'),
      /no complete HTTP answer \(no complete answer came \(the connection stayed silent for 0\.15 s\)\)/,
      true,
    ],
    [
      'that is no HTTP',
      Buffer.from('<html>busy</html>\r\n\r\n'),
      /no complete HTTP answer \(the answer does not begin with an HTTP\/1\.x status line\)/,
      false,
    ],
  ])(
    'an error answer %s: failed, saying why there was no answer',
    async (_, error, why, cutShort) => {
      const url = await server(error, { cutShort });
      const ended = await withContext(
        () => url,
        (ctx) => contentLength(ctx, raw),
      );
      expect(ended.outcome).toBe('failed');
      expect(ended.why).toMatch(why);
    },
    30_000,
  );

  it('an error answer whose chunk sizes count characters, not bytes: failed, saying the chunked body is malformed', async () => {
    const url = await server(
      chunked(['{"status": false, "code": 400, ', '"message": "JSON invalide: « {"}'], '0\r\n\r\n', (line) => line.length.toString(16)),
    );
    const ended = await withContext(
      () => url,
      (ctx) => contentLength(ctx, raw),
    );
    expect(ended.outcome).toBe('failed');
    expect(ended.why).toMatch(/no complete HTTP answer \(a malformed chunked body: a chunk of \d+ bytes is not followed by CRLF\)/);
  }, 30_000);
});
