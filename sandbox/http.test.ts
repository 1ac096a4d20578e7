// The socket layer tells a recording how long the event loop had just stalled, so a client's timing
// is judged with that allowance (clients/traffic.ts); it is asked only when something records.
import { afterEach, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './index.js';
import type { RecordedExchange } from './options.js';

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
