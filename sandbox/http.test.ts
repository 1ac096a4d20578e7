// The socket layer tells a recording how long the event loop had just stalled, so a client's timing
// is judged with that allowance (clients/traffic.ts); it is asked only when something records. Links
// in its answers point where the client reached it (its Host).
import { Agent, request as httpRequest } from 'node:http';
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
