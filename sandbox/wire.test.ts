// The sandbox's two socket layers, node's (a real listener) and nock's (the in-process client
// harness), answer a request they cannot hand to the app the same way, from sandbox/wire.ts.
import * as http from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installClientHarness, type ClientHarness } from '../clients/harness.js';
import { startSandbox, type RunningSandbox } from './index.js';
import { OPERATION_PATHS } from './paths.js';
import { answerWire } from './wire.js';

interface Answer {
  status: number;
  json: unknown;
  connection: string | undefined;
}

/** A request written byte for byte on a socket of its own (nock does not see raw sockets), and the answer read back. */
function rawPost(origin: string, target: string, body: Buffer): Promise<Answer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST ${target} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body);
    });
    let data = '';
    let answered = false;
    /** The answer once it is all in (the listener may keep the connection open after it). */
    const answer = (): Answer | undefined => {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const head = data.slice(0, end);
      const text = data.slice(end + 4);
      if (Buffer.byteLength(text) < Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1])) return undefined;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      return { status, json: JSON.parse(text), connection: /\r\nconnection: (\S+)/i.exec(head)?.[1] };
    };
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString();
      const complete = answer();
      if (complete === undefined) return;
      answered = true;
      socket.destroy();
      resolve(complete);
    });
    // The sandbox may drop the connection while the body is still being written: the answer came first.
    socket.on('error', () => {});
    socket.on('close', () => {
      if (!answered) reject(new Error(`no complete answer: ${JSON.stringify(data.slice(0, 200))}`));
    });
  });
}

/** A request through node's http client, which the harness's nock intercepts. */
function post(origin: string, target: string, body: Buffer): Promise<Answer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: 'POST', path: target, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text), connection: res.headers.connection }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let sandbox: RunningSandbox;
let harness: ClientHarness;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  harness = installClientHarness({ baseUrl: 'http://127.0.0.1:9' });
});
afterAll(async () => {
  await harness.restore();
  await sandbox.close();
});

const unreadable = { status: false, code: 400, message: 'the request could not be read (malformed header or target)' };

describe('both socket layers answer what they cannot hand to the app alike', () => {
  it('a body one byte past the limit: the same 400 envelope, and the connection closed', async () => {
    const limit = sandbox.app.options.maxBodyBytes;
    const body = Buffer.alloc(limit + 1, 'x');
    const onSocket = await rawPost(sandbox.baseUrl, OPERATION_PATHS.createOrder, body);
    expect(onSocket).toEqual({
      status: 400,
      json: { status: false, code: 400, message: `the request body is larger than ${limit} bytes` },
      connection: 'close',
    });
    expect(await post(harness.baseUrl, OPERATION_PATHS.createOrder, body)).toEqual(onSocket);
  });

  it('a body exactly at the limit goes to the app on both', async () => {
    const body = Buffer.alloc(sandbox.app.options.maxBodyBytes, 'x');
    const onSocket = await rawPost(sandbox.baseUrl, OPERATION_PATHS.createOrder, body);
    expect(onSocket.status).toBe(401);
    expect(await post(harness.baseUrl, OPERATION_PATHS.createOrder, body)).toMatchObject({ status: 401 });
  });

  it('a target the Fetch API cannot take: 400, the connection closed; the harness decides it in the same place', async () => {
    // A real client cannot send it through nock (its interceptor refuses the URL first), so the
    // harness's side is the request as nock would hand it on.
    const target = '//[/api/v3/pg/order/create';
    expect(await rawPost(sandbox.baseUrl, target, Buffer.from('{}'))).toEqual({ status: 400, json: unreadable, connection: 'close' });
    const wire = { method: 'POST', target, origin: harness.baseUrl, headers: [], body: Buffer.from('{}') };
    const { response, closeAfter } = await answerWire(sandbox.app, wire);
    expect({ status: response.status, json: await response.json(), closeAfter }).toEqual({
      status: 400,
      json: unreadable,
      closeAfter: true,
    });
  });
});
