// The socket layer records how long the event loop had just stalled (a client's timing is judged with
// that allowance), points links where the client reached it (its Host), and takes node's parsed headers.
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { OPERATION_PATHS, startSandbox, type RunningSandbox } from './index.js';
import { orderBody } from './operations/order-test-support.js';
import type { RecordedExchange } from './options.js';
import { signedRequest } from './test-support.js';

let sandbox: RunningSandbox | undefined;
afterEach(() => sandbox?.close());

it('records the stall of the event loop just before a request arrived', async () => {
  const recorded: RecordedExchange[] = [];
  sandbox = await startSandbox({ port: 0, record: (x) => recorded.push(x) });
  // Let the stall watch take its first look, then hold the event loop for 150 ms.
  await new Promise((resolve) => setTimeout(resolve, 30));
  const until = performance.now() + 150;
  while (performance.now() < until) {
    // busy: the stall a loaded machine or a long garbage collection makes
  }
  await fetch(`${sandbox.baseUrl}/no-such-path`);
  expect(recorded).toHaveLength(1);
  expect(recorded[0]!.stalledMs).toBeGreaterThanOrEqual(100);
});

it("links follow each request's Host, also when it changes on one keep-alive connection", async () => {
  const recorded: RecordedExchange[] = [];
  const running = await startSandbox({ port: 0, record: (x) => recorded.push(x) });
  sandbox = running;
  const { port } = new URL(running.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const linkWith = async (host: string, orderId: string): Promise<string> => {
    const signed = signedRequest(running.app, { path: OPERATION_PATHS.createOrder, payload: orderBody(orderId) });
    const body = await signed.text();
    const headers = { ...Object.fromEntries(signed.headers), host };
    const text = await new Promise<string>((resolve, reject) => {
      const request = httpRequest({ agent, host: '127.0.0.1', port, method: 'POST', path: OPERATION_PATHS.createOrder, headers }, (res) => {
        let received = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (received += chunk));
        res.on('end', () => resolve(received));
      });
      request.on('error', reject);
      request.end(body);
    });
    return (JSON.parse(text) as { return_data: { payment_link: string } }).return_data.payment_link;
  };
  try {
    expect(await linkWith(`localhost:${port}`, 'ord-1')).toMatch(`http://localhost:${port}/checkout/`);
    // A Host that is no host name: the listening address.
    expect(await linkWith('not a host', 'ord-2')).toMatch(`${running.baseUrl}/checkout/`);
    expect(await linkWith(`LocalHost:${port}`, 'ord-3')).toMatch(`http://localhost:${port}/checkout/`);
    expect(recorded.map((x) => x.connection)).toEqual([1, 1, 1]);
  } finally {
    agent.destroy();
  }
});

/** Writes `head` (and nothing more) on a fresh connection to the sandbox; resolves with the answer's status line. */
function rawStatusLine(baseUrl: string, head: Buffer): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n')) {
        resolve(received.slice(0, received.indexOf('\r\n')));
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
}

it("takes headers as node's strict parser hands them over: as a Headers keeps them, and a value with NUL never reaches the app", async () => {
  const recorded: RecordedExchange[] = [];
  sandbox = await startSandbox({ port: 0, record: (x) => recorded.push(x) });
  const head = (extra: string) =>
    Buffer.from(`GET /no-such-path HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Connection: close\r\n\r\n`, 'latin1');
  // Space and tabs around a value, a Latin-1 byte, a header sent twice.
  expect(await rawStatusLine(sandbox.baseUrl, head('X-Pad:  \t padded \t \r\nX-Latin: caf\xe9\r\nx-dup: 1\r\nX-Dup: 2\r\n'))).toBe(
    'HTTP/1.1 404 Not Found',
  );
  const expected = new Headers([
    ['x-pad', '  \t padded \t '],
    ['x-latin', 'caf\xe9'],
    ['x-dup', '1'],
    ['x-dup', '2'],
  ]);
  const kept = new Map(recorded[0]!.headers);
  for (const name of ['x-pad', 'x-latin', 'x-dup']) expect(kept.get(name), name).toBe(expected.get(name));
  // A NUL in a value: node's parser refuses the request itself.
  expect(await rawStatusLine(sandbox.baseUrl, head('X-Nul: a\0b\r\n'))).toBe('HTTP/1.1 400 Bad Request');
  expect(recorded).toHaveLength(1);
});
