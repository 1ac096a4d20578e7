// A worker thread of the benches: starts the sandbox, or a Node server that reads each body and
// answers a fixed JSON text (the fair one first verifies the HMAC and parses the JSON, answering 401
// or 400 when they fail), on loopback, and posts its base URL (the sandbox's config too). A sandbox
// started with `record` keeps what it receives from a 'record' message on, and posts it back on
// 'take': the suite bench replays a suite's requests from it. Any of them answers 'busy' with its
// event loop's active and idle time so far (ms), and its thread's CPU time where Linux tells it: the
// serving figures show how busy each server was, and what a request cost it.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { startSandbox } from '../sandbox/index.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { MERCHANT_A } from '../sandbox/tenants.js';
import { verifyRequest } from '../signer/verify.js';

const FIXED = JSON.stringify({
  code: '200',
  status: 'success',
  message: 'ok',
  data: { payout_order_id: 'X', status: 'SUCCESS', amount: '1.00' },
});

export interface ServerData {
  kind: 'sandbox' | 'bare' | 'fair';
  /** The sandbox's settlement delay (its default when absent). */
  settleSeconds?: number;
  /** The sandbox records what it receives, as told (see above). */
  record?: boolean;
}

const { kind, settleSeconds, record } = workerData as ServerData;
parentPort!.on('message', (message: string) => {
  if (message !== 'busy') return;
  const { active, idle } = performance.eventLoopUtilization();
  parentPort!.postMessage({ busy: { active, idle, ...threadCpuMs() } });
});

/** This thread's CPU time so far (ms), from Linux's per-thread scheduler statistics; none elsewhere. */
function threadCpuMs(): { cpuMs?: number } {
  try {
    return { cpuMs: Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6 };
  } catch {
    return {};
  }
}
if (kind === 'sandbox') {
  const recorded: RecordedExchange[] = [];
  let recording = false;
  const sandbox = await startSandbox({
    port: 0,
    ...(settleSeconds !== undefined ? { settleSeconds } : {}),
    ...(record ? { record: (exchange: RecordedExchange) => void (recording && recorded.push(exchange)) } : {}),
  });
  parentPort!.on('message', (message: 'record' | 'take' | 'busy') => {
    if (message === 'busy') return;
    recording = message === 'record';
    // Answered either way, so the bench sends nothing before recording has begun.
    parentPort!.postMessage(message === 'take' ? recorded.splice(0) : 'recording');
  });
  parentPort!.postMessage({ baseUrl: sandbox.baseUrl, config: sandbox.config });
} else {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (kind === 'fair') {
        const body = Buffer.concat(chunks).toString('utf8');
        // The secret as text: node's createHmac on every request, as a server written the usual way
        // verifies. (The sandbox prepares each merchant's key once: that saving is its own, not the baseline's.)
        const verdict = verifyRequest({
          body,
          timestamp: req.headers['x-timestamp'] as string | undefined,
          signature: req.headers['x-signature'] as string | undefined,
          secret: MERCHANT_A.secretKey,
          now: Math.floor(Date.now() / 1000),
        });
        if (!verdict.ok) return void res.writeHead(401).end();
        try {
          JSON.parse(body);
        } catch {
          return void res.writeHead(400).end();
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(FIXED);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  parentPort!.postMessage({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}
