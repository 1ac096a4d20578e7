import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualClock, virtualClock } from '../core/clock-test-support.js';
import type { TargetConfig } from './config.js';
import { MAX_REPLAY_RESENDS, replayWindowUsedUp, retryAfterMs, TargetClient } from './http.js';
import { freeAtRandom } from './used-seconds.js';

const merchant = { apiKey: 'pk_test_http', secretKey: 'sk_test_http_secret_value', walletId: 'W1' };
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback server that records what it gets and answers with `answer`. */
async function server(
  answer: (seen: Seen, n: number, res: ServerResponse) => void,
  options: ConstructorParameters<typeof TargetClient>[1] = { timeoutMs: 10_000 },
): Promise<{ client: TargetClient; seen: Seen[] }> {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req
      .on('data', (c) => (body += c))
      .on('end', () => {
        const entry = { method: req.method!, url: req.url!, headers: req.headers, body };
        seen.push(entry);
        answer(entry, seen.length, res);
      });
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const config: TargetConfig = { baseUrl: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, environment: 'sandbox', merchant };
  const client = new TargetClient(config, options);
  closers.push(async () => {
    await client.close();
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  });
  return { client, seen };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('the HTTP layer', () => {
  it('waits out a 429 as Retry-After says, then sends the request again, freshly signed', async () => {
    // The wait is on the client's clock: a virtual one moves by what is slept, at once.
    const clock = virtualClock();
    const { client, seen } = await server(
      (_s, n, res) =>
        n === 1 ? json(res, 429, { status: false, code: 429, message: 'slow down' }, { 'retry-after': '1' }) : json(res, 200, { ok: true }),
      { timeoutMs: 10_000, clock },
    );
    const started = clock.now();
    const exchange = await client.send({ label: 'probe', path: '/x', payload: { a: 1 } });
    expect(exchange.response?.status).toBe(200);
    expect(exchange.label).toBe('probe (sent again after 1 rate-limit answer)');
    expect(clock.now() - started).toBe(1_000);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers['x-signature']).not.toBe(seen[0]!.headers['x-signature']);
  });

  it('hides a secret the server echoes back spelled with JSON escapes, in the parsed body too', async () => {
    const escaped = [...merchant.secretKey].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const { client } = await server((_s, _n, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(`{"status":false,"code":400,"message":"key ${escaped}"}`),
    );
    const exchange = await client.send({ label: 'probe', path: '/x', payload: { a: 1 } });
    expect((exchange.response?.json as { message: string }).message).toBe('key [redacted:secret]');
    expect(JSON.stringify(exchange)).not.toContain(merchant.secretKey);
  });

  it('redacts a signature the server echoes back, in body and headers', async () => {
    const { client } = await server((s, _n, res) =>
      json(
        res,
        401,
        { status: false, code: 401, message: `bad signature ${String(s.headers['x-signature'])}` },
        { 'x-debug': String(s.headers['x-signature']) },
      ),
    );
    const exchange = await client.send({ label: 'probe', path: '/x', payload: { a: 1 } });
    const text = JSON.stringify(exchange);
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    expect(exchange.response?.body).toMatch(/\[redacted:signature\]/);
    expect(exchange.response?.headers['x-debug']).toBe('[redacted:signature]');
  });

  it('sends a GET with its fields in the query and signs the empty body (P-SIGN-4)', async () => {
    const { client, seen } = await server((_s, _n, res) => json(res, 200, {}));
    await client.send({ label: 'probe', path: '/status', method: 'GET', payload: { order_id: 'A 1' } });
    const request = seen[0]!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe('/status?order_id=A+1');
    expect(request.body).toBe('');
    expect(request.headers['content-type']).toBeUndefined();
    const timestamp = String(request.headers['x-timestamp']);
    expect(request.headers['x-signature']).toBe(
      createHmac('sha256', merchant.secretKey)
        .update('' + timestamp)
        .digest('hex'),
    );
  });

  it('cuts off a server that trickles its answer, and stops the run after three requests without one', async () => {
    // A byte every 50 ms: each wait for a chunk is short, so only a deadline for the whole answer ends it.
    const { client, seen } = await server(
      (_s, _n, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(timer));
      },
      { timeoutMs: 300 },
    );
    // Each send is bounded here too, so a client without the deadline fails in seconds, saying so.
    const cutOff = (i: number) =>
      Promise.race([
        client.send({ label: 'probe', path: '/x', payload: { i } }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the deadline did not cut the trickle off')), 2_000).unref()),
      ]);
    for (let i = 0; i < 3; i++) {
      // The whole answer's deadline, not undici's wait for a chunk (which a loaded machine can also trip).
      expect((await cutOff(i)).error).toMatchObject({
        code: 'timeout',
        message: expect.stringMatching(/^no complete answer from .* within 0.3 s/),
      });
    }
    const fourth = await client.send({ label: 'probe', path: '/x', payload: { i: 4 } });
    expect(fourth.error?.code).toBe('stopped');
    expect(fourth.error?.message).toMatch(
      /^not sent: the run stopped: the target did not answer, or took more than 0.24 s \(of the 0.3 s --timeout\), 3 times in a row/,
    );
    expect(seen).toHaveLength(3);
  });

  it('takes another second for a body whose pair another request already sent, however that one was signed', async () => {
    const clock = manualClock(1_732_147_200_000);
    const { client, seen } = await server((_s, _n, res) => json(res, 200, {}), { timeoutMs: 10_000, clock });
    const second = String(clock.now() / 1000);
    // Signed over its body alone, "{}" + the second: the very pair a body "{}" takes at that second.
    await client.send({ label: 'body-only signature', path: '/x', raw: `{}${second}`, timestamp: second, signBodyOnly: true });
    await client.send({ label: 'the body', path: '/x', raw: '{}' });
    const signature = (body: string, timestamp: string) =>
      createHmac('sha256', merchant.secretKey)
        .update(body + timestamp)
        .digest('hex');
    expect(seen[0]!.headers['x-signature']).toBe(signature('{}', second));
    expect(seen[1]!.headers['x-timestamp']).not.toBe(second);
    expect(seen[1]!.headers['x-signature']).toBe(signature('{}', String(seen[1]!.headers['x-timestamp'])));
  });

  it('never sends one (timestamp, signature) twice, staying well inside the window', async () => {
    const { client, seen } = await server((_s, _n, res) => json(res, 200, {}));
    const startedAt = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 8; i++) await client.send({ label: 'same read', path: '/x', payload: { same: true } });
    const endedAt = Math.floor(Date.now() / 1000);
    const pairs = seen.map((s) => `${String(s.headers['x-timestamp'])}:${String(s.headers['x-signature'])}`);
    expect(new Set(pairs).size).toBe(8);
    // The first takes the clock's second; repeats draw from the last half window (150 s of the default ±300).
    expect(Number(seen[0]!.headers['x-timestamp'])).toBeGreaterThanOrEqual(startedAt);
    for (const s of seen) {
      expect(startedAt - Number(s.headers['x-timestamp'])).toBeLessThanOrEqual(150);
      expect(Number(s.headers['x-timestamp'])).toBeLessThanOrEqual(endedAt);
    }
  });

  it("takes a repeat's second among this run's own seconds while one is free, before any earlier one", async () => {
    const clock = manualClock(1_732_147_200_000);
    const { client, seen } = await server((_s, _n, res) => json(res, 200, {}), { timeoutMs: 10_000, clock });
    const started = clock.now() / 1000;
    // Ten seconds into the run: eleven of its own, against 150 of the window.
    await clock.advance(10_000);
    for (let i = 0; i < 9; i++) await client.send({ label: 'same read', path: '/x', payload: { same: true } });
    const seconds = seen.map((s) => Number(s.headers['x-timestamp']));
    expect(new Set(seconds).size).toBe(9);
    for (const second of seconds) expect(second).toBeGreaterThanOrEqual(started);
  });

  it('finds a repeated body a free second, correctly signed, however many seconds are taken', async () => {
    // A clock that stands still: each repeat of the read must take another second of the window.
    const { client, seen } = await server((_s, _n, res) => json(res, 200, {}), { timeoutMs: 10_000, clock: manualClock() });
    for (let i = 0; i < 61; i++) await client.send({ label: 'same read', path: '/x', payload: { same: true } });
    expect(new Set(seen.map((s) => s.headers['x-timestamp'])).size).toBe(61);
    for (const s of seen)
      expect(s.headers['x-signature']).toBe(
        createHmac('sha256', merchant.secretKey)
          .update(s.body + String(s.headers['x-timestamp']))
          .digest('hex'),
      );
  });

  it('never reuses a pair sent with a signature a check gave, though it is the one the kit would compute', async () => {
    const clock = manualClock();
    const { client, seen } = await server((_s, _n, res) => json(res, 200, {}), { timeoutMs: 10_000, clock });
    const second = String(Math.floor(clock.now() / 1000));
    const body = '{"same":true}';
    // Sent at this second with another body signed, and the signature of this body at it put in by hand.
    const given = createHmac('sha256', merchant.secretKey)
      .update(body + second)
      .digest('hex');
    await client.send({ label: 'given', path: '/x', payload: { same: true }, timestamp: second, signedBody: 'other', signature: given });
    await client.send({ label: 'plain', path: '/x', payload: { same: true } });
    expect(seen[0]!.headers['x-signature']).toBe(given);
    expect(seen[1]!.headers['x-timestamp']).not.toBe(second);
  });

  it("sends a correctly signed request refused 401 again with a fresh timestamp, as another run's replay is refused", async () => {
    // The target refuses the first arrival of each body (as if another run had sent it in that second).
    const bodies = new Set<string>();
    const { client, seen } = await server((s, _n, res) =>
      bodies.has(s.body) ? json(res, 200, {}) : (bodies.add(s.body), json(res, 401, { status: false, code: 401, message: 'replayed' })),
    );
    await client.send({ label: 'accepted first', path: '/x', payload: { warm: 1 } }); // refused, then accepted
    const x = await client.send({ label: 'a read', path: '/x', payload: { n: 1 } });
    expect(x.response?.status).toBe(200);
    expect(x.label).toBe(
      "a read (sent again with a fresh X-TIMESTAMP: refused 401 once though correctly signed, as a target refuses a replay of another run's identical request)",
    );
    expect(seen.slice(2).map((s) => s.body)).toEqual(['{"n":1}', '{"n":1}']);
    expect(seen[2]!.headers['x-timestamp']).not.toBe(seen[3]!.headers['x-timestamp']);
    // A request whose signature is broken on purpose is never sent again: its 401 is the answer judged.
    const broken = await client.send({
      label: 'altered',
      path: '/x',
      payload: { n: 2 },
      signature: (sig) => sig.replace(/^./, (c) => (c === '0' ? '1' : '0')),
    });
    expect(broken.response?.status).toBe(401);
    expect(seen.filter((s) => s.body === '{"n":2}')).toHaveLength(1);
  });

  it("never sends again a body with this run's own ids: no other run sent it, so its 401 is the answer judged", async () => {
    const s = createServer((req, res) => {
      req.resume();
      req.on('end', () => json(res, req.headers['x-api-key'] === merchant.apiKey && seen++ > 0 ? 401 : 200, {}));
    });
    let seen = 0;
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const client = new TargetClient(
      { baseUrl: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, environment: 'sandbox', merchant },
      { timeoutMs: 10_000, ownMark: 'RUN7F3A' },
    );
    closers.push(async () => {
      await client.close();
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    });
    await client.send({ label: 'accepted', path: '/x', payload: { warm: 1 } });
    const own = await client.send({ label: 'a payout of this run', path: '/x', payload: { payout_order_id: 'PO-RUN7F3A-1' } });
    expect(own.response?.status).toBe(401);
    expect(own.resent).toBeUndefined();
    expect(seen).toBe(2);
    // Its refusal is the target's answer, judged as any other.
    expect(replayWindowUsedUp(own)).toBeUndefined();
    // A body another run may send too (no id of this run) is sent again; still refused, it judges nothing.
    const shared = await client.send({ label: 'a Balance Inquiry', path: '/x', payload: { svc_wallet_id: 'W1' } });
    expect(shared.resent).toBe(MAX_REPLAY_RESENDS);
    expect(replayWindowUsedUp(shared)).toBe(
      `a Balance Inquiry was refused 401 ${MAX_REPLAY_RESENDS + 1} times, each time with a fresh X-TIMESTAMP, as a target that refuses replays (P-AUTH-4) refuses another run's identical request`,
    );
  });

  it('a shared body taken on a later resend, or refused for keys shown wrong, is no used-up window', async () => {
    let refusals = 2;
    const { client } = await server((_s, _n, res) => (refusals-- > 0 ? json(res, 401, {}) : json(res, 200, {})));
    const taken = await client.send({ label: 'a read', path: '/x', payload: { read: 1 } });
    expect([taken.response?.status, taken.resent]).toEqual([200, 2]);
    expect(replayWindowUsedUp(taken)).toBeUndefined();
    const { client: wrongKeys } = await server((_s, _n, res) => json(res, 401, {}));
    await wrongKeys.send({ label: 'a read', path: '/x', payload: { read: 1 } });
    const refused = await wrongKeys.send({ label: 'a read', path: '/x', payload: { read: 2 } });
    expect([refused.response?.status, refused.resent]).toEqual([401, undefined]);
    expect(replayWindowUsedUp(refused)).toBeUndefined();
  });

  it("shows the keys wrong by refusals of this run's own bodies, not of bodies other runs send too", async () => {
    // Every body another run may send is refused (their windows used up); so is every one of this run's.
    const { client, seen } = await server((_s, _n, res) => json(res, 401, {}), { timeoutMs: 10_000, ownMark: 'RUN7F3A' });
    for (let read = 1; read <= 3; read++) {
      const shared = await client.send({ label: 'a fixture read', path: '/x', payload: { read } });
      expect(replayWindowUsedUp(shared)).toBeDefined();
    }
    for (let n = 1; n <= 3; n++) await client.send({ label: 'a payout', path: '/x', payload: { id: `PO-RUN7F3A-${n}` } });
    const after = await client.send({ label: 'a fixture read', path: '/x', payload: { read: 4 } });
    expect([after.resent, replayWindowUsedUp(after)]).toEqual([undefined, undefined]);
    expect(seen).toHaveLength(3 * (MAX_REPLAY_RESENDS + 1) + 3 + 1);
  });

  it('interrupted, sends nothing more; its sibling still sends, and neither repeats a pair of the other', async () => {
    const interrupt = new AbortController();
    const { client, seen } = await server((_s, _n, res) => json(res, 200, {}), { timeoutMs: 10_000, interrupted: interrupt.signal });
    const sibling = client.sibling({ timeoutMs: 10_000 });
    closers.push(() => sibling.close());
    for (let i = 0; i < 3; i++) {
      await client.send({ label: 'run', path: '/x', payload: {} });
      await sibling.send({ label: 'cleanup', path: '/x', payload: {} });
    }
    interrupt.abort('SIGINT');
    const after = await client.send({ label: 'run', path: '/x', payload: {} });
    expect(after.error?.message).toBe('not sent: the run stopped: it was interrupted (SIGINT)');
    expect((await sibling.send({ label: 'cleanup', path: '/x', payload: {} })).response?.status).toBe(200);
    const pairs = seen.map((x) => `${String(x.headers['x-timestamp'])} ${String(x.headers['x-signature'])}`);
    expect(new Set(pairs).size).toBe(7);
  });

  it('stops sending again once the keys are shown wrong: refused every time, never accepted', async () => {
    const { client, seen } = await server((_s, _n, res) => json(res, 401, { status: false, code: 401, message: 'invalid signature' }));
    for (let i = 0; i < 5; i++) await client.send({ label: `read ${i}`, path: '/x', payload: { i } });
    // The first is sent again up to the third refusal of these keys; none after it.
    expect(seen.map((s) => JSON.parse(s.body).i)).toEqual([0, 0, 0, 1, 2, 3, 4]);
  });

  it.each<[string | undefined, number]>([
    [undefined, 1000],
    ['2', 2000],
    ['600', 10_000],
    ['soon', 1000],
  ])('reads Retry-After %j as %d ms', (value, ms) => {
    expect(retryAfterMs(value)).toBe(ms);
  });
});

describe('a quiet window (TargetClient.quietly)', () => {
  it('waits for the requests out to be answered, holds every other back while it lasts, and lets its own through', async () => {
    const order: string[] = [];
    const held: Array<() => void> = [];
    const { client } = await server((seen, _n, res) => {
      order.push(`got ${seen.url}`);
      // The first request is answered only when the test says: the window must wait for it.
      if (seen.url.endsWith('/slow')) held.push(() => json(res, 200, { status: true }));
      else json(res, 200, { status: true });
    });
    const slow = client.send({ label: 'slow', path: '/slow', payload: {} });
    await vi.waitFor(() => expect(held).toHaveLength(1));
    let quietStarted = false;
    const quiet = client.quietly(async (send) => {
      quietStarted = true;
      order.push('window open');
      await send({ label: 'inside', path: '/inside', payload: {} });
      order.push('window closing');
    });
    // Sent after the window was asked for: it waits for the window to close.
    const later = client.send({ label: 'later', path: '/later', payload: {} });
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(quietStarted).toBe(false);
    held[0]!();
    await Promise.all([slow, quiet, later]);
    expect(order).toEqual(['got /slow', 'window open', 'got /inside', 'window closing', 'got /later']);
  });

  it('opens once what the waited-for request answered is noted by its sender (a payout made is known to the window)', async () => {
    const { client } = await server((_seen, _n, res) => json(res, 200, { status: true }));
    let noted = false;
    // The sender notes its answer a few steps after it comes, as a check's context notes a payout.
    const sent = (async () => {
      await client.send({ label: 'initiate', path: '/initiate', payload: {} });
      await Promise.resolve();
      noted = true;
    })();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await client.quietly(() => Promise.resolve(noted))).toBe(true);
    await sent;
  });
});

describe('freeAtRandom', () => {
  it('picks only a free second of the range, each as often as another, and none when none is free', () => {
    const counts = new Map<number, number>();
    // Two free seconds of 151.
    const sparse = (second: number) => second === 1_000 || second === 1_100;
    for (let i = 0; i < 2_000; i++) {
      const second = freeAtRandom(1_000, 1_150, sparse)!;
      counts.set(second, (counts.get(second) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([1_000, 1_100]);
    expect(counts.get(1_000)).toBeGreaterThan(800);
    expect(counts.get(1_100)).toBeGreaterThan(800);
    // Most of them free: every free second comes up, and no taken one.
    const dense = (second: number) => second % 10 !== 0;
    const seen = new Set<number>();
    for (let i = 0; i < 5_000; i++) seen.add(freeAtRandom(0, 99, dense)!);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i).filter(dense));
    expect(freeAtRandom(0, 99, () => false)).toBeUndefined();
    expect(freeAtRandom(5, 4, () => true)).toBeUndefined();
  });
});
