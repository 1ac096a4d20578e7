// The wire and the edges (P-HTTP, P-AMOUNT-4, P-DUP-5, P-ERR-3): the variants `otherMethod` and `longIds`,
// and that each fault of the 'wire' and 'edges' areas (and auth-window-past-only) changes one answer.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../faults.js';
import { OPERATION_PATHS, startSandbox } from '../index.js';
import type { SandboxOptions } from '../options.js';
import { call, signedRequest, T0 } from '../test-support.js';
import { orderBody, orderSandbox, type OrderSandbox } from './order-test-support.js';
import { bankingSandbox, initiationBody } from './payout-test-support.js';

const created = async (s: OrderSandbox, body: Record<string, unknown>) => {
  const answer = await s.create(body);
  return answer.status === 201 ? answer.json.return_data : answer.status;
};
const amountReadBack = async (s: OrderSandbox, id: string, order_amount: unknown, order_currency = 'INR') => {
  const answer = await s.create(orderBody(id, { order_amount, order_currency }));
  if (answer.status !== 201) return answer.status;
  return (await s.status(id)).json.data.order_amount;
};
const LONG_ID = `LONG-${'x'.repeat(200)}`;
const LONGER_ID = `LONG-${'x'.repeat(300)}`;

/** Another method on an operation's path, correctly signed: the status, content type and body. */
async function otherMethod(s: OrderSandbox, method: string): Promise<string> {
  const signed = signedRequest(s.app, { path: OPERATION_PATHS.orderStatus, payload: { order_id: 'M-1' } });
  const response = await s.app.handle(
    new Request(signed.url, { method, headers: signed.headers, ...(method === 'GET' ? {} : { body: await signed.text() }) }),
  );
  return `${response.status} ${response.headers.get('content-type')} ${await response.text()}`;
}

describe('the wire and the edges, as v1.2 asks', () => {
  it('another method on an operation path answers 405 with the envelope and Allow, or 404 under the variant', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      expect(await otherMethod(orderSandbox(), method)).toBe(
        `405 application/json; charset=utf-8 {"status":false,"code":405,"message":"/api/v3/pg/order/status takes POST, not ${method}"}`,
      );
      expect(await otherMethod(orderSandbox({ variant: { otherMethod: 404 } }), method)).toMatch(
        /^404 application\/json; charset=utf-8 \{"status":false,"code":404,"message":"no operation at /,
      );
    }
  });

  it('Content-Type application/json is taken with parameters and in any letter case', async () => {
    const s = orderSandbox();
    for (const [i, type] of ['application/json; charset=utf-8', 'Application/JSON', 'APPLICATION/JSON;charset=UTF-8'].entries()) {
      expect(
        (await call(s.app, { path: OPERATION_PATHS.createOrder, payload: orderBody(`MT-${i}`), headers: { 'Content-Type': type } })).status,
      ).toBe(201);
    }
    expect(
      (await call(s.app, { path: OPERATION_PATHS.createOrder, payload: orderBody('MT-X'), headers: { 'Content-Type': 'text/plain' } }))
        .status,
    ).toBe(400);
  });

  it('a body that repeats a key is refused with 400, at any depth', async () => {
    const s = orderSandbox();
    const top =
      '{"customer":{"address":{"city":"Kochi","country":"IN","line1":"1 Road","postal_code":"682011","state":"Kerala"},"email":"a@example.org","name":"A","phone":"9123456780"},"order_amount":1,"order_currency":"INR","order_id":"RK-1","order_id":"RK-2","return_url":"https://m.example/r","service_type":"payment"}';
    const answer = await s.createRaw(top);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toContain('"order_id"');
    expect((await s.createRaw(top.replace('"name":"A"', '"name":"A","name":"B"').replace(',"order_id":"RK-2"', ''))).status).toBe(400);
    expect((await s.createRaw(top.replace(',"order_id":"RK-2"', ''))).status).toBe(201);
  });

  it('amounts are kept exactly in 0-, 2- and 3-decimal currencies, as numbers and as strings', async () => {
    const s = orderSandbox();
    const cases: Array<[unknown, string, string]> = [
      [1234, 'JPY', '1234'],
      ['1234', 'KRW', '1234'],
      [0.07, 'INR', '0.07'],
      ['1499.99', 'INR', '1499.99'],
      [19.99, 'USD', '19.99'],
      [1.005, 'KWD', '1.005'],
      ['0.001', 'BHD', '0.001'],
      [123.457, 'OMR', '123.457'],
      [99999999.99, 'INR', '99999999.99'],
      ['21474836.48', 'INR', '21474836.48'],
    ];
    for (const [i, [amount, currency, expected]] of cases.entries())
      expect(await amountReadBack(s, `AX-${i}`, amount, currency)).toBe(expected);
    for (const [i, zero] of [0, 0.0, '0', '0.00', '-0.00', '0.000'].entries())
      expect((await s.create(orderBody(`Z-${i}`, { order_amount: zero }))).status).toBe(400);
  });

  it('identifiers are exact: case kept, a trailing space distinct, a long one kept whole or refused under the variant', async () => {
    const s = orderSandbox();
    expect((await s.create(orderBody('CaseId-1'))).status).toBe(201);
    expect((await s.create(orderBody('caseid-1'))).status).toBe(201);
    expect((await s.create(orderBody('CaseId-1 '))).status).toBe(201);
    expect((await created(s, orderBody(LONG_ID))).order_id).toBe(LONG_ID);
    expect((await s.status(LONG_ID)).json.data.order_id).toBe(LONG_ID);
    const refusing = orderSandbox({ variant: { longIds: 'refuse' } });
    expect((await refusing.create(orderBody(LONG_ID))).status).toBe(400);
    expect((await refusing.create(orderBody('x'.repeat(64)))).status).toBe(201);
  });

  it('a payout_order_id longer than 64 characters is kept whole, or refused with 400 under the variant', async () => {
    const keeping = await bankingSandbox().initiate(initiationBody(LONG_ID));
    expect([keeping.status, keeping.json.data.payout_order_id]).toEqual([200, LONG_ID]);
    const refused = await bankingSandbox({ variant: { longIds: 'refuse' } }).initiate(initiationBody(LONG_ID));
    expect([refused.status, refused.json.message]).toEqual([400, '/payout_order_id: at most 64 characters']);
  });

  it("Content-Length is the answer's length in bytes, non-ASCII included, on a real socket", async () => {
    const sandbox = await startSandbox({ port: 0, clock: () => T0, variant: { replay: 'allow' } });
    try {
      const { length, bytes } = await rawCreate(sandbox.baseUrl, orderBody('CL-Grüße-✓'));
      expect(length).toBe(bytes);
    } finally {
      await sandbox.close();
    }
  });
});

interface FaultCase {
  fault: FaultName;
  observe(s: OrderSandbox): Promise<unknown>;
  off: unknown;
  on: unknown;
  options?: SandboxOptions;
}

const CASES: FaultCase[] = [
  {
    fault: 'http-method-html',
    observe: async (s) => (await otherMethod(s, 'PUT')).split(';')[0],
    off: '405 application/json',
    on: '405 text/html',
  },
  {
    fault: 'http-method-html',
    observe: async (s) => (await otherMethod(s, 'DELETE')).split(';')[0],
    off: '404 application/json',
    on: '404 text/html',
    options: { variant: { otherMethod: 404 } },
  },
  {
    fault: 'http-media-type-exact',
    observe: async (s) =>
      (
        await call(s.app, {
          path: OPERATION_PATHS.createOrder,
          payload: orderBody('F-MT'),
          headers: { 'Content-Type': 'application/json; charset=utf-8' },
        })
      ).status,
    off: 201,
    on: 415,
  },
  {
    fault: 'http-repeated-key-last-wins',
    observe: async (s) =>
      (await s.createRaw(JSON.stringify(orderBody('F-RK1')).replace('"order_id":"F-RK1"', '"order_id":"F-RK1","order_id":"F-RK2"'))).status,
    off: 400,
    on: 201,
  },
  {
    fault: 'auth-window-past-only',
    observe: async (s) =>
      (await call(s.app, { path: OPERATION_PATHS.createOrder, payload: orderBody('F-AH'), timestamp: T0 / 1000 + 30 })).status,
    off: 201,
    on: 401,
  },
  {
    fault: 'amount-zero-string-accepted',
    observe: async (s) => [
      (await s.create(orderBody('F-Z1', { order_amount: '0.00' }))).status,
      (await s.create(orderBody('F-Z2', { order_amount: '-0.00' }))).status,
    ],
    off: [400, 400],
    on: [201, 201],
  },
  { fault: 'amount-three-decimals-truncated', observe: (s) => amountReadBack(s, 'F-3D', '12.345', 'KWD'), off: '12.345', on: '12.340' },
  { fault: 'amount-large-int32', observe: (s) => amountReadBack(s, 'F-L', 99999999.99), off: '99999999.99', on: '14100654.07' },
  { fault: 'amount-float32', observe: (s) => amountReadBack(s, 'F-F', 16777217, 'JPY'), off: '16777217', on: '16777216' },
  {
    fault: 'dup-id-case-insensitive',
    observe: async (s) => [(await s.create(orderBody('F-Case'))).status, (await s.create(orderBody('f-case'))).status],
    off: [201, 201],
    on: [201, 409],
  },
  {
    fault: 'dup-id-truncated',
    observe: async (s) => String((await created(s, orderBody(LONG_ID))).order_id).length,
    off: LONG_ID.length,
    on: 64,
  },
  {
    fault: 'dup-id-truncated-255',
    observe: async (s) => [
      String((await created(s, orderBody(LONG_ID))).order_id).length,
      String((await created(s, orderBody(LONGER_ID))).order_id).length,
    ],
    off: [LONG_ID.length, LONGER_ID.length],
    on: [LONG_ID.length, 255],
  },
  {
    fault: 'errors-astral-500',
    observe: (s) =>
      s.create(orderBody('F-AS', { customer: { ...(orderBody('x').customer as object), name: 'Ana 🌸 Silva' } })).then((a) => a.status),
    off: 201,
    on: 500,
  },
  {
    fault: 'errors-line-separator-500',
    observe: (s) => s.create(orderBody('F-LS', { order_note: 'line\u2028two\u2029' })).then((a) => a.status),
    off: 201,
    on: 500,
  },
];

describe('wire and edges fault switches', () => {
  for (const c of CASES) {
    it(`${c.fault} (${FAULTS[c.fault].requirement})`, async () => {
      expect(await c.observe(orderSandbox(c.options))).toEqual(c.off);
      expect(await c.observe(orderSandbox({ ...c.options, faults: [c.fault] }))).toEqual(c.on);
    });
  }

  it('http-content-length-chars: Content-Length counts UTF-16 characters, so it is short for non-ASCII text', async () => {
    const sandbox = await startSandbox({ port: 0, clock: () => T0, variant: { replay: 'allow' }, faults: ['http-content-length-chars'] });
    try {
      const { length, bytes } = await rawCreate(sandbox.baseUrl, orderBody('CL-Grüße-✓'));
      expect(bytes - length).toBe(4); // ü and ß are 2 bytes each, ✓ is 3: one character each
    } finally {
      await sandbox.close();
    }
  });

  it('http-chunked-body-empty: a Create Order sent chunked is read as empty, so its signature no longer matches', async () => {
    const statuses: number[] = [];
    for (const faults of [[], ['http-chunked-body-empty']] as FaultName[][]) {
      const sandbox = await startSandbox({ port: 0, clock: () => T0, faults });
      try {
        statuses.push(await chunkedCreate(sandbox.baseUrl, orderBody(`CHUNKED-${faults.length}`)));
      } finally {
        await sandbox.close();
      }
    }
    expect(statuses).toEqual([201, 401]);
  });

  it('http-body-unread: after a refused signature, the next request on the connection is read from its body', async () => {
    const statuses: number[] = [];
    for (const faults of [[], ['http-body-unread']] as FaultName[][]) {
      const sandbox = await startSandbox({ port: 0, clock: () => T0, faults });
      try {
        statuses.push(await afterRefusal(sandbox.baseUrl));
      } finally {
        await sandbox.close();
      }
    }
    expect(statuses).toEqual([201, 400]);
  });

  it('every wire and edges fault has a case here', () => {
    const ours = (Object.keys(FAULTS) as FaultName[]).filter(
      (f) => ['wire', 'edges'].includes(FAULTS[f].area) || f === 'auth-window-past-only',
    );
    const own = ['http-content-length-chars', 'http-chunked-body-empty', 'http-body-unread'];
    expect(new Set([...CASES.map((c) => c.fault), ...own])).toEqual(new Set(ours));
  });
});

/** A Create Order over a raw socket with Connection: close: the Content-Length said and the body's bytes as read to the close. */
async function rawCreate(baseUrl: string, payload: unknown): Promise<{ length: number; bytes: number }> {
  const { port } = new URL(baseUrl);
  const request = signedRequest({ options: { clock: () => T0 } } as never, { path: OPERATION_PATHS.createOrder, payload });
  const body = Buffer.from(await request.text());
  const head = [
    `POST ${OPERATION_PATHS.createOrder} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Connection: close',
    `Content-Length: ${body.length}`,
  ];
  request.headers.forEach((value, name) => head.push(`${name}: ${value}`));
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n'), body])));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
  const split = raw.indexOf('\r\n\r\n');
  const length = Number(/content-length:\s*(\d+)/i.exec(raw.subarray(0, split).toString('latin1'))?.[1]);
  return { length, bytes: raw.length - split - 4 };
}

/** A Create Order refused for its signature, then a correct one on the same kept-alive connection: the second's status. */
async function afterRefusal(baseUrl: string): Promise<number> {
  const { Agent, request } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = async (id: string, signature?: string) => {
    const signed = signedRequest({ options: { clock: () => T0 } } as never, { path: OPERATION_PATHS.createOrder, payload: orderBody(id) });
    const headers: Record<string, string> = {};
    signed.headers.forEach((value, name) => (headers[name] = value));
    if (signature !== undefined) headers['x-signature'] = signature;
    const body = Buffer.from(await signed.text());
    return new Promise<number>((resolve, reject) => {
      const req = request(`${baseUrl}${OPERATION_PATHS.createOrder}`, { method: 'POST', headers, agent }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
  };
  try {
    expect(await send('UNREAD-1', '0'.repeat(64))).toBe(401);
    return await send('UNREAD-2');
  } finally {
    agent.destroy();
  }
}

/** A signed Create Order whose body node's client streams in two chunks (Transfer-Encoding: chunked): the status. */
async function chunkedCreate(baseUrl: string, payload: unknown): Promise<number> {
  const signed = signedRequest({ options: { clock: () => T0 } } as never, { path: OPERATION_PATHS.createOrder, payload });
  const body = Buffer.from(await signed.text());
  const headers: Record<string, string> = {};
  signed.headers.forEach((value, name) => (headers[name] = value));
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${OPERATION_PATHS.createOrder}`, { method: 'POST', headers }, (res) => {
      res.resume().on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(body.subarray(0, 10));
    req.end(body.subarray(10));
  });
}
