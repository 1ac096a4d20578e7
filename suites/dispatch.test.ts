import { createServer, type Server, type Socket } from 'node:net';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from './dispatch.js';

// A server written byte for byte, so each test says exactly what the target sends.
let answer: (socket: Socket) => void = () => {};
let server: Server;
let baseUrl: string;
const agent = new Agent({ connections: 4 });
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => answer(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
});
afterEach(() => {
  for (const socket of sockets) socket.destroy();
});
afterAll(async () => {
  await agent.close();
  await new Promise((resolve) => server.close(resolve));
});

const init = { method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5_000 };
const limits = { keep: 1024, stopAfter: 64 * 1024 };

describe('dispatch', () => {
  it('takes the final answer after an informational one, with a repeated header joined', async () => {
    answer = (socket) =>
      socket.write(
        'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n' +
          'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Trace: a\r\nX-Trace: b\r\nContent-Length: 11\r\n\r\n{"ok":true}',
      );
    const got = await dispatch(agent, `${baseUrl}/orders?x=1`, { ...init, limits });
    expect(got.status).toBe(201);
    expect(got.headers['x-trace']).toBe('a, b');
    expect(got.headers.link).toBeUndefined();
    expect(got.body.kept.toString()).toBe('{"ok":true}');
    expect(got.body).toMatchObject({ receivedBytes: 11, cut: false, stopped: false });
  });

  it('keeps the first bytes of a long answer and counts the rest', async () => {
    const body = 'x'.repeat(5_000);
    answer = (socket) => socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    const got = await dispatch(agent, baseUrl, { ...init, limits });
    expect(got.body.kept.length).toBe(1024);
    expect(got.body).toMatchObject({ receivedBytes: 5_000, cut: true, stopped: false });
  });

  it('stops reading a flood and drops its connection', async () => {
    answer = (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      const chunk = `${(16 * 1024).toString(16)}\r\n${'y'.repeat(16 * 1024)}\r\n`;
      const pump = () => {
        while (!socket.destroyed && socket.write(chunk));
        if (!socket.destroyed) socket.once('drain', pump);
      };
      pump();
    };
    const got = await dispatch(agent, baseUrl, { ...init, limits });
    expect(got.body.stopped).toBe(true);
    expect(got.body.kept.length).toBe(1024);
    expect(got.body.receivedBytes).toBeGreaterThan(limits.stopAfter);
    await expect.poll(() => sockets.size, { timeout: 2_000 }).toBe(0);
  });

  it('gives up on an answer that does not come whole within the deadline', async () => {
    // Headers at once, then a byte at a time: each wait is short, the whole is not.
    answer = (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n');
      const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('z')), 20);
    };
    const started = performance.now();
    const error = await dispatch(agent, baseUrl, { ...init, timeoutMs: 300, limits }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("passes on undici's error for a connection closed before the answer", async () => {
    answer = (socket) => socket.destroy();
    await expect(dispatch(agent, baseUrl, { ...init, limits })).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  });

  it('rejects a URL that does not parse, sending nothing', async () => {
    await expect(dispatch(agent, 'not a url', { ...init, limits })).rejects.toThrow(TypeError);
  });
});
