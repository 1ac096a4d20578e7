// The socket layer over a real socket: a handler's answer now or later, a page's, a thenable; a
// handler, a recording or a log sink that throws; a client gone mid-body. Each test ends by closing the app.
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { canonicalize } from '../signer/canonical.js';
import { jsonResponse, SandboxResponse } from './envelope.js';
import { createApp } from './app.js';
import type { Routes, SandboxApp } from './context.js';
import { listen, type Listening } from './http.js';
import type { RecordedExchange, SandboxOptions } from './options.js';
import { MERCHANT_A } from './tenants.js';

let listening: Listening | undefined;
let app: SandboxApp | undefined;
afterEach(async () => {
  await listening?.close();
  // close() waits for every request in hand: it settles only if each path released its request.
  const closed = await Promise.race([
    app?.close().then(() => 'closed'),
    new Promise((resolve) => setTimeout(resolve, 1_000, 'still waiting')),
  ]);
  expect(closed).toBe('closed');
});

const at = (status: number, text: string) => jsonResponse(status, { status: true, code: status, message: text });

const routes: Routes = {
  operations: {
    '/now': () => at(200, 'at once'),
    '/later': () => new Promise((resolve) => setTimeout(() => resolve(at(201, 'later')), 5)),
    '/throws': () => {
      throw new Error('a bug in the handler');
    },
    '/rejects': () => Promise.reject(new Error('a bug, later')),
  },
  pages: [
    {
      method: 'GET',
      prefix: '/thenable/',
      // Not a Promise, but what `await` would take: an object with a then.
      handle: () => ({ then: (ok: (answer: SandboxResponse) => void) => ok(at(200, 'a thenable')) }) as unknown as Promise<SandboxResponse>,
    },
    {
      method: 'GET',
      prefix: '/page/',
      handle: () => new SandboxResponse('<html><body>a page</body></html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    },
  ],
};

async function serve(options: SandboxOptions = {}): Promise<string> {
  app = createApp(routes, { log: () => {}, ...options });
  listening = await listen(app, { port: 0 });
  return listening.baseUrl;
}

let sent = 0;
/** A signed POST to `path`, as the sandbox verifies it: a body of its own each time, so none is a replay. */
function post(baseUrl: string, path: string): Promise<Response> {
  const body = canonicalize({ n: ++sent });
  const timestamp = String(Math.floor(Date.now() / 1000));
  return fetch(baseUrl + path, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-api-key': MERCHANT_A.apiKey,
      'x-timestamp': timestamp,
      'x-signature': createHmac('sha256', MERCHANT_A.secretKey)
        .update(body + timestamp)
        .digest('hex'),
    },
  });
}

it('writes an answer the handler has at once, and one it gives later, each recorded with its body', async () => {
  const recorded: RecordedExchange[] = [];
  const baseUrl = await serve({ record: (x) => recorded.push(x) });
  const now = await post(baseUrl, '/now');
  expect([now.status, await now.json()]).toEqual([200, { status: true, code: 200, message: 'at once' }]);
  const later = await post(baseUrl, '/later');
  expect([later.status, await later.json()]).toEqual([201, { status: true, code: 201, message: 'later' }]);
  expect(recorded.map((x) => [x.path, x.status, JSON.parse(x.responseBody).message])).toEqual([
    ['/now', 200, 'at once'],
    ['/later', 201, 'later'],
  ]);
});

it("writes a page's Response whole, and records its body", async () => {
  const recorded: RecordedExchange[] = [];
  const baseUrl = await serve({ record: (x) => recorded.push(x) });
  const page = await fetch(`${baseUrl}/page/x`);
  expect([page.status, page.headers.get('content-type'), await page.text()]).toEqual([
    200,
    'text/html',
    '<html><body>a page</body></html>',
  ]);
  expect(recorded.map((x) => [x.path, x.responseBody])).toEqual([['/page/x', '<html><body>a page</body></html>']]);
});

it("answers a handler's bug with the 500 envelope, thrown at once or later, and serves on", async () => {
  const logged: string[] = [];
  const baseUrl = await serve({ log: (line) => logged.push(line) });
  for (const path of ['/throws', '/rejects']) {
    const answer = await post(baseUrl, path);
    expect([answer.status, ((await answer.json()) as { message: string }).message]).toEqual([500, 'internal error in the sandbox']);
  }
  expect(logged.filter((line) => line.startsWith('sandbox:'))).toEqual([
    'sandbox: internal error on POST /throws: a bug in the handler',
    'sandbox: internal error on POST /rejects: a bug, later',
  ]);
  expect((await post(baseUrl, '/now')).status).toBe(200);
});

it("answers 400 when recording an answer fails, at once, later or a page's, and serves on", async () => {
  let failing = true;
  const baseUrl = await serve({
    record: () => {
      if (failing) throw new Error('the recording failed');
    },
  });
  const unreadable = [400, 'the request could not be read (malformed header or target)'];
  for (const path of ['/now', '/later']) {
    const answer = await post(baseUrl, path);
    expect([answer.status, ((await answer.json()) as { message: string }).message]).toEqual(unreadable);
  }
  const page = await fetch(`${baseUrl}/page/x`);
  expect([page.status, ((await page.json()) as { message: string }).message]).toEqual(unreadable);
  failing = false;
  expect((await post(baseUrl, '/now')).status).toBe(200);
});

it("answers 400 when the log sink throws on a handler's bug, at once or later, and serves on", async () => {
  const baseUrl = await serve({
    log: (line) => {
      if (line.startsWith('sandbox: internal error')) throw new Error('the log sink broke');
    },
  });
  for (const path of ['/throws', '/rejects']) {
    const answer = await post(baseUrl, path);
    expect([answer.status, ((await answer.json()) as { message: string }).message]).toEqual([
      400,
      'the request could not be read (malformed header or target)',
    ]);
  }
  expect((await post(baseUrl, '/now')).status).toBe(200);
});

it('takes a thenable answer as await would', async () => {
  const baseUrl = await serve();
  const answer = await fetch(`${baseUrl}/thenable/x`);
  expect([answer.status, ((await answer.json()) as { message: string }).message]).toEqual([200, 'a thenable']);
});

it('does not fall over when a client hangs up halfway through its body, and serves the next one', async () => {
  const baseUrl = await serve();
  const { port } = new URL(baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('POST /now HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"half":');
  await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect((await post(baseUrl, '/now')).status).toBe(200);
});
