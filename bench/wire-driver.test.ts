import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerEnd, sendOverWire, type Prepared } from './wire-driver.js';

const servers: Array<Server | TcpServer> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listening<T extends Server | TcpServer>(server: T): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function requests(count: number): Prepared[] {
  return Array.from({ length: count }, (_, n) => ({
    path: n % 2 === 0 ? '/create' : '/status',
    body: JSON.stringify({ n, note: 'é→🎁' }),
    headers: { 'content-type': 'application/json', 'x-n': String(n) },
  }));
}

describe('answerEnd', () => {
  it('frames an answer by its Content-Length, and waits for the rest of its body', () => {
    const whole = Buffer.from('HTTP/1.1 201 Created\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 200');
    expect(answerEnd(whole)).toEqual({ end: whole.indexOf('HTTP/1.1 200'), status: 201 });
    expect(answerEnd(whole.subarray(0, whole.indexOf('hello') + 3))).toBeUndefined();
    expect(answerEnd(Buffer.from('HTTP/1.1 201 Created\r\nContent-Le'))).toBeUndefined();
    // A header sent twice with one value frames as that value.
    const twice = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\nhello');
    expect(answerEnd(twice)).toEqual({ end: twice.length, status: 200 });
  });

  it('frames a chunked answer at its last chunk', () => {
    const chunked = 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\n\r\n';
    expect(answerEnd(Buffer.from(`${chunked}next`))).toEqual({ end: Buffer.byteLength(chunked), status: 200 });
    expect(answerEnd(Buffer.from(chunked.slice(0, -2)))).toBeUndefined();
    expect(answerEnd(Buffer.from(chunked.slice(0, chunked.indexOf('0123'))))).toBeUndefined();
  });

  it('refuses what it cannot frame', () => {
    expect(() => answerEnd(Buffer.from('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nbody'))).toThrow(/neither Content-Length nor chunked/);
    expect(() => answerEnd(Buffer.from('<html>\r\n\r\n'))).toThrow(/not HTTP\/1.1/);
    expect(() => answerEnd(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\nhello'))).toThrow(/not a number of bytes/);
  });
});

describe('sendOverWire', () => {
  it('sends every request once, bytes intact, and tallies the answers by status', async () => {
    const seen: string[] = [];
    const baseUrl = await listening(
      createHttpServer((req, res) => {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (chunk: string) => (body += chunk));
        req.on('end', () => {
          seen.push(`${String(req.headers['x-n'])} ${String(req.url)} ${body}`);
          // One framing by length, one chunked (Node chunks an answer written in two parts).
          if (req.url === '/create') res.writeHead(201, { 'content-length': '2' }).end('ok');
          else {
            res.writeHead(404);
            res.write('not ');
            res.end('found');
          }
        });
      }),
    );
    const sent = requests(41);
    const run = await sendOverWire(baseUrl, sent, 8);
    expect([...run.statuses]).toEqual(
      expect.arrayContaining([
        [201, 21],
        [404, 20],
      ]),
    );
    expect(seen.sort()).toEqual(sent.map((r) => `${r.headers['x-n']} ${r.path} ${r.body}`).sort());
    expect(run.seconds).toBeGreaterThan(0);
  });

  it('fails, naming the server, when a connection closes before its answer', async () => {
    const baseUrl = await listening(createTcpServer((socket) => socket.once('data', () => socket.destroy())));
    await expect(sendOverWire(baseUrl, requests(3), 2)).rejects.toThrow(`the server at ${baseUrl} closed a connection before answering`);
  });

  it('fails when the server answers what it was not asked', async () => {
    const baseUrl = await listening(
      createTcpServer((socket) =>
        socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n')),
      ),
    );
    await expect(sendOverWire(baseUrl, requests(1), 1)).rejects.toThrow(/answered a request it was not sent/);
  });
});
