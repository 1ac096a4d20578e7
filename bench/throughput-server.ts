// A worker thread of the throughput bench: starts the sandbox, or a bare Node server that reads each
// body and answers a fixed JSON text, on loopback, and posts its base URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { startSandbox } from '../sandbox/index.js';

const FIXED = JSON.stringify({
  code: '200',
  status: 'success',
  message: 'ok',
  data: { payout_order_id: 'X', status: 'SUCCESS', amount: '1.00' },
});

if ((workerData as { kind: string }).kind === 'sandbox') {
  const sandbox = await startSandbox({ port: 0 });
  parentPort!.postMessage({ baseUrl: sandbox.baseUrl });
} else {
  const server = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(FIXED);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  parentPort!.postMessage({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}
