import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import type { TargetConfig } from '../suites/config.js';
import { clientRequests, sendAllAsClient, type Prepared } from './throughput.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

const CONFIG = {
  baseUrl: 'http://127.0.0.1:1',
  merchant: { apiKey: 'key-a', secretKey: 'secret-a' },
  otherMerchant: { apiKey: 'key-b', secretKey: 'secret-b' },
} as TargetConfig;

/** A request signed by `secret` at a fixed second (or with the signature given), as a suite would have sent it. */
function signed(path: string, body: string, apiKey: string, secret: string, signature?: string): Prepared {
  return {
    path,
    body,
    headers: {
      'content-type': 'application/json',
      'x-api-key': apiKey,
      'x-timestamp': '1700000000',
      'x-signature': signature ?? hmacSha256Hex(secret, `${body}1700000000`),
    },
  };
}

describe('clientRequests', () => {
  it('gives a body its payload only when the body is that payload written canonically, and a known key its secret', () => {
    const canonical = canonicalize({ b: 1, a: 'é' });
    const built = clientRequests(
      [
        signed('/x', canonical, 'key-a', 'secret-a'),
        signed('/x', '{"b":1,"a":"é"}', 'key-b', 'secret-b'),
        signed('/x', 'not json', 'key-unknown', 'whatever'),
        signed('/x', ` ${canonical}`, 'key-a', 'secret-a'),
      ],
      CONFIG,
    );
    expect(built.map((r) => [r.payload, r.secret])).toEqual([
      [{ b: 1, a: 'é' }, 'secret-a'],
      [undefined, 'secret-b'],
      [undefined, undefined],
      [undefined, 'secret-a'],
    ]);
  });
});

describe('sendAllAsClient', () => {
  it('sends each request once with the bytes and signature the suite sent, a wrong signature kept wrong', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen.push(`${String(req.url)} ${String(req.headers['x-signature'])} ${body}`);
        // Answers of both kinds: JSON, and text that does not parse (the client must take either).
        res
          .writeHead(req.url === '/json' ? 200 : 400, { 'content-type': 'application/json' })
          .end(req.url === '/json' ? '{"ok":true}' : 'nope');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sent = [
      ...Array.from({ length: 9 }, (_, n) =>
        signed('/json', canonicalize({ n, note: 'é→🎁', z: [1, { y: 2, x: 1 }] }), 'key-a', 'secret-a'),
      ),
      signed('/text', canonicalize({ n: 'wrong' }), 'key-b', 'secret-b', 'f'.repeat(64)),
      signed('/text', '{ "raw" : true }', 'key-b', 'secret-b'),
    ];
    const seconds = await sendAllAsClient(baseUrl, clientRequests(sent, CONFIG), 4);
    expect(seconds).toBeGreaterThan(0);
    expect(seen.sort()).toEqual(sent.map((r) => `${r.path} ${r.headers['x-signature']} ${r.body}`).sort());

    // The body is written from the payload, not taken as recorded.
    seen.length = 0;
    await sendAllAsClient(baseUrl, [{ ...sent[0]!, body: 'stale', payload: { b: [2, 1], a: 0 } }], 1);
    expect(seen).toEqual([`/json ${sent[0]!.headers['x-signature']} {"a":0,"b":[2,1]}`]);
  });

  it('fails when a request is not answered', async () => {
    const server = createServer((req) => req.socket.destroy());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expect(sendAllAsClient(baseUrl, clientRequests([signed('/x', '{}', 'key-a', 'secret-a')], CONFIG), 1)).rejects.toThrow();
  });
});
