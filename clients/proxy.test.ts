import { createServer } from 'node:http';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startProxy } from './proxy.js';

const reached: string[] = [];
const upstream = createServer((req, res) => {
  reached.push(req.url!);
  req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":true}'));
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise((resolve) => upstream.close(resolve)));
const upstreamUrl = new URL(`http://127.0.0.1:${(upstream.address() as { port: number }).port}`);

async function through(count: number, keep: { exchanges: number; bytes: number }) {
  const lines: string[] = [];
  const proxy = await startProxy({
    upstream: upstreamUrl,
    host: '127.0.0.1',
    port: 0,
    keep,
    onExchange: (x, l) => void lines.push(`${l.status}${x ? '' : ' -'}`),
  });
  try {
    for (let i = 0; i < count; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          fetch(`${proxy.url}/api/v3/banking/balance`, { method: 'POST', body: `{"n":${i + j}}` }).then((r) => r.text()),
        ),
      );
    }
  } finally {
    await proxy.close();
  }
  return { proxy, lines };
}

describe('the proxy keeps what it judges bounded, however long it runs', () => {
  it('keeps at most so many exchanges, forwards and counts the rest', async () => {
    const { proxy, lines } = await through(200, { exchanges: 30, bytes: 1 << 20 });
    expect([proxy.seen, proxy.exchanges.length, proxy.notKept]).toEqual([200, 30, 170]);
    expect(lines.filter((l) => l === '200')).toHaveLength(30);
    expect(lines.filter((l) => l === '200 -')).toHaveLength(170);
  });

  it('keeps at most so many bytes', async () => {
    const { proxy } = await through(100, { exchanges: 1000, bytes: 400 });
    const kept = proxy.exchanges.reduce((sum, x) => sum + x.body.length + x.responseBody.length, 0);
    expect(kept).toBeLessThanOrEqual(400);
    expect(proxy.exchanges.length).toBeGreaterThan(5);
    expect(proxy.exchanges.length + proxy.notKept).toBe(100);
  });
});

describe('the proxy forwards paths only', () => {
  it('refuses a target naming a host of its own (absolute-form) with 400, forwarding nothing; a path that looks like one goes on', async () => {
    const lines: string[] = [];
    const proxy = await startProxy({
      upstream: upstreamUrl,
      host: '127.0.0.1',
      port: 0,
      onExchange: (_, l) => void lines.push(String(l.status)),
    });
    const raw = (target: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(new URL(proxy.url).port), '127.0.0.1', () =>
          socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
        );
        let answer = '';
        socket
          .setEncoding('utf8')
          .on('data', (c: string) => (answer += c))
          .on('close', () => resolve(answer));
      });
    reached.length = 0;
    try {
      const refused = await raw('http://elsewhere.example/api/v3/banking/balance');
      expect(refused).toMatch(/^HTTP\/1\.1 400 /);
      expect(refused).toMatch(/"code":400,"message":"svc-conformance proxy: forwards paths only/);
      expect(await raw('//elsewhere.example/x')).toMatch(/^HTTP\/1\.1 200 /);
      expect(reached).toEqual(['//elsewhere.example/x']);
      expect([proxy.seen, proxy.notForwarded, lines[0]]).toEqual([2, 1, '400 (not a path: not forwarded)']);
    } finally {
      await proxy.close();
    }
  });
});

describe('an upload the client abandons', () => {
  it('is counted as seen and not kept, and its line is printed, when the upstream answered before the body ended', async () => {
    const early = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":true}'));
    await new Promise<void>((resolve) => early.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    let told!: () => void;
    const line = new Promise<void>((resolve) => (told = resolve));
    const proxy = await startProxy({
      upstream: new URL(`http://127.0.0.1:${(early.address() as { port: number }).port}`),
      host: '127.0.0.1',
      port: 0,
      onExchange: (_, l) => (lines.push(String(l.status)), told()),
    });
    try {
      const socket = connect(Number(new URL(proxy.url).port), '127.0.0.1', () =>
        socket.write('POST /api/v3/banking/balance HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"svc_wallet_id"'),
      );
      // The answer arrives though the body never ends; then the client goes.
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.destroy();
      await line;
      expect([proxy.seen, proxy.notKept, proxy.exchanges.length, lines]).toEqual([1, 1, 0, ['200']]);
    } finally {
      await proxy.close();
      await new Promise((resolve) => early.close(resolve));
    }
  });
});

describe('an answer the upstream cuts off', () => {
  it('is cut off for the client too (not left waiting), and counted as not kept', async () => {
    const cutting = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"status":', () => res.socket?.destroy());
    });
    await new Promise<void>((resolve) => cutting.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const proxy = await startProxy({
      upstream: new URL(`http://127.0.0.1:${(cutting.address() as { port: number }).port}`),
      host: '127.0.0.1',
      port: 0,
      onExchange: (x, l) => void lines.push(`${l.status}${x ? '' : ' -'}`),
    });
    try {
      const socket = connect(Number(new URL(proxy.url).port), '127.0.0.1', () => socket.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n'));
      socket.resume();
      // Closed by the proxy once the upstream went: a client left waiting would never see this.
      await new Promise<void>((resolve) => socket.once('close', () => resolve()));
      expect([proxy.seen, proxy.notKept, lines]).toEqual([1, 1, ['200 -']]);
    } finally {
      await proxy.close();
      await new Promise((resolve) => cutting.close(resolve));
    }
  });
});
