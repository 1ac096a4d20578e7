// proxy (P-TRAFFIC): real clients, in three languages, through the proxy to the reference sandbox
// started as a process of its own; the same client verdict as verify-client gives, the server's faults
// that plain traffic shows, judge --har on the proxy's HAR agreeing, and the proxy changing nothing.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InterruptSignal } from '../cli/interrupt.js';
import { manualClock } from '../core/clock-test-support.js';
import type { Report } from '../core/report.js';
import { startSandbox, type FaultName } from '../sandbox/index.js';
import { BIN, cliEnv, runCli, spawnServe, type ServedSandbox } from './cli-harness.js';

const ROOT = new URL('..', import.meta.url).pathname;
const served: ServedSandbox[] = [];
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const s of served) s.child.kill('SIGTERM');
  for (const close of closers) await close();
});

/** A sandbox with these faults (`serve`, a process of its own, if asked), its config written where the proxy reads it. */
async function sandbox(faults: FaultName[], ownProcess: boolean): Promise<{ url: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-'));
  if (ownProcess) served.push(await spawnServe(['--quiet', '--config-out', join(dir, 'target.json')]));
  else {
    const started = await startSandbox({ port: 0, faults });
    closers.push(() => started.close());
    writeFileSync(join(dir, 'target.json'), JSON.stringify(started.config));
  }
  return { url: JSON.parse(readFileSync(join(dir, 'target.json'), 'utf8')).baseUrl as string, dir };
}

const reportIn = (dir: string, folder = 'out') => JSON.parse(readFileSync(join(dir, folder, 'report.json'), 'utf8')) as Report;
const failed = (report: Report) => report.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
const present = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;

async function proxied(client: string[], faults: FaultName[] = [], ownProcess = false) {
  const { url, dir } = await sandbox(faults, ownProcess);
  const args = [
    'proxy',
    '--upstream',
    url,
    '--config',
    join(dir, 'target.json'),
    '--har',
    join(dir, 'traffic.har'),
    '--report-dir',
    join(dir, 'out'),
  ];
  const result = await runCli([...args, '--', ...client], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
  return { ...result, dir, url, report: reportIn(dir) };
}

describe.concurrent('proxy -- COMMAND', () => {
  it.each([
    ['node', ['node', 'examples/good-client.mjs']],
    ['python', ['python3', 'examples/good_client.py']],
    ['php', ['php', 'examples/good_client.php']],
  ] as const)(
    'a conforming %s client and the sandbox: both sides conformant, a line per exchange as it happens; judge --har agrees',
    async (runtime, client) => {
      if (!present(client[0])) throw new Error(`${client[0]} is missing here: .ci/run installs it`);
      const { code, stdout, report, dir } = await proxied([...client], [], true);
      expect(failed(report), stdout).toEqual([]);
      expect(code, stdout).toBe(0);
      expect(report.sides).toMatchObject({ client: { verdict: 'conformant' }, server: { verdict: 'conformant' } });
      expect(stdout).toMatch(/^proxy: listening on http:\/\/127\.0\.0\.1:\d+, forwarding to /);
      expect(stdout).toMatch(/\n {2}POST \/api\/v3\/pg\/order\/create → 20[01]\n/);
      const again = await runCli(['judge', '--har', 'traffic.har', '--config', 'target.json', '--report-dir', 'again'], { cwd: dir });
      expect(again.code, runtime).toBe(0);
      expect(reportIn(dir, 'again').sides).toEqual(report.sides);
    },
  );

  it('a server fault that plain traffic shows: the server side not conformant, the client side conformant; judge --har agrees', async () => {
    const { code, report, dir, stdout } = await proxied(['node', 'examples/good-client.mjs'], ['order-code-mismatch']);
    expect(stdout).toMatch(/\n {2}POST \/api\/v3\/pg\/order\/create → 20[01] {2}✗ ORDER-ENVELOPE\n/);
    expect(code).toBe(1);
    expect(failed(report)).toEqual(['ORDER-ENVELOPE']);
    expect(report.sides).toMatchObject({ client: { verdict: 'conformant' }, server: { verdict: 'not-conformant' } });
    await runCli(['judge', '--har', 'traffic.har', '--config', 'target.json', '--report-dir', 'again'], { cwd: dir });
    expect(failed(reportIn(dir, 'again'))).toEqual(['ORDER-ENVELOPE']);
    expect(readFileSync(join(dir, 'traffic.har'), 'utf8')).not.toContain(
      JSON.parse(readFileSync(join(dir, 'target.json'), 'utf8')).merchant.secretKey,
    );
  });

  it('a client that breaks a rule (python, millisecond timestamps): the client side fails what verify-client fails', async () => {
    const client = ['python3', 'examples/millisecond-client.py'];
    const { report, stdout } = await proxied(client);
    expect(stdout).toMatch(/\n {2}POST \/api\/v3\/\S+ → 401 {2}✗ CLIENT-TIMESTAMP-SECONDS\n/);
    const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-'));
    await runCli(['verify-client', '--report-dir', join(dir, 'r'), '--', ...client], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
    const viaVerify = reportIn(dir, 'r');
    expect(failed(report).filter((id) => id.startsWith('CLIENT-'))).toEqual(failed(viaVerify));
    expect(failed(viaVerify)).toEqual(['CLIENT-TIMESTAMP-SECONDS']);
    expect(report.sides).toMatchObject({ client: { verdict: 'not-conformant' }, server: { verdict: 'conformant' } });
  });
});

describe.concurrent('the proxy and secrets', () => {
  it('no secret, in any form a leaky client uses, in the relayed output, the lines, the reports or the HAR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-'));
    const client = join(dir, 'leaky-client.mjs');
    writeFileSync(
      client,
      `const secret = process.env.SVC_SECRET_KEY, key = process.env.SVC_API_KEY;
      const basic = 'Basic ' + Buffer.from(key + ':' + secret).toString('base64');
      console.log('secret hex', Buffer.from(secret).toString('hex').toUpperCase(), basic);
      await fetch(process.env.SVC_BASE_URL + '/api/v3/pg/order/create?debug=' + encodeURIComponent(secret), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic, 'x-api-key': key, 'x-debug': Buffer.from(secret).toString('hex') },
        body: JSON.stringify({ debug: Buffer.from(secret).toString('base64url') }),
      });`,
    );
    const { stdout, stderr, dir: out } = await proxied([process.execPath, client]);
    const secret = JSON.parse(readFileSync(join(out, 'target.json'), 'utf8')).merchant.secretKey as string;
    const forms = [
      secret,
      Buffer.from(secret).toString('hex'),
      Buffer.from(secret).toString('base64').slice(0, 24),
      Buffer.from(secret).toString('base64url').slice(0, 24),
    ];
    expect(stdout).toContain('[redacted:secret]');
    const texts = {
      stdout,
      stderr,
      ...Object.fromEntries(
        ['out/report.json', 'out/junit.xml', 'out/report.html', 'traffic.har'].map((f) => [f, readFileSync(join(out, f), 'utf8')]),
      ),
    };
    for (const [where, text] of Object.entries(texts))
      for (const form of forms) expect(text.toLowerCase().includes(form.toLowerCase()), `${where} holds ${form}`).toBe(false);
  });
});

describe.concurrent('the proxy itself', () => {
  it('changes nothing: method, path, query, header names and values, body bytes; a large body streams through whole and is not judged', async () => {
    const seen: Array<{ method: string; url: string; headers: string[]; body: string }> = [];
    const upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => {
          seen.push({ method: req.method!, url: req.url!, headers: req.rawHeaders, body: Buffer.concat(chunks).toString('utf8') });
          res.writeHead(200, { 'Content-Type': 'application/json', 'X-Odd-Case': 'kept' }).end('{"b":1,"a":2}');
        });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const port = (upstream.address() as { port: number }).port;
    const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-'));
    const url = `http://127.0.0.1:${await freePort()}`;
    let interrupt: ((signal: InterruptSignal) => Promise<unknown>) | undefined;
    const running = runCli(
      ['proxy', '--upstream', `http://127.0.0.1:${port}`, '--listen', url.slice(7), '--report-dir', join(dir, 'out')],
      {
        onInterrupt: (handler) => ((interrupt = handler), () => {}),
        cwd: dir,
      },
    );
    for (let i = 0; i < 200 && !(await listens(url)); i++) await new Promise((r) => setTimeout(r, 25));
    const big = 'x'.repeat(2 * 1024 * 1024);
    for (const [path, body] of [
      ["/api/v3/pg/order/create?x=1&y=%20&q='a'", '{ "z" : 1 ,"a":[ 1.50 ]}'],
      ['/big', big],
    ] as const) {
      const answer = await new Promise<{ status: number; headers: string[]; body: string }>((resolve) => {
        // The path given as it is (a URL string would be re-escaped before it is sent).
        const out = request(
          url,
          {
            path,
            method: 'POST',
            headers: { 'x-api-KEY': 'pk', 'X-Timestamp': '1', 'content-type': 'application/json; charset=utf-8' },
          },
          (res) => {
            const back: Buffer[] = [];
            res
              .on('data', (c: Buffer) => back.push(c))
              .on('end', () => resolve({ status: res.statusCode!, headers: res.rawHeaders, body: Buffer.concat(back).toString('utf8') }));
          },
        );
        out.end(body);
      });
      expect(answer).toMatchObject({ status: 200, body: '{"b":1,"a":2}' });
      expect(answer.headers).toContain('X-Odd-Case');
    }
    await interrupt!('SIGINT');
    const result = await running;
    upstream.close();
    expect(seen.map((s) => [s.method, s.url, s.body.length])).toEqual([
      ['POST', "/api/v3/pg/order/create?x=1&y=%20&q='a'", 24],
      ['POST', '/big', big.length],
    ]);
    expect(seen[0]!.body).toBe('{ "z" : 1 ,"a":[ 1.50 ]}');
    expect(seen[0]!.headers).toEqual(
      expect.arrayContaining(['x-api-KEY', 'pk', 'X-Timestamp', '1', 'content-type', 'application/json; charset=utf-8']),
    );
    // SIGINT is the proxy's normal end: the reports are written and the exit is the verdict's, not 130.
    expect([0, 1, 2]).toContain(result.code);
    expect(reportIn(dir).notes).toContainEqual(expect.stringMatching(/^1 exchange\(s\) not kept \(a body over 1 MiB/));
    expect(result.stdout).toMatch(/POST \/big → 200 {2}\(not judged\)/);
  });

  it('an upstream that never answers: the client gets 502 with the error envelope; nothing judged, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-'));
    const client = `fetch(process.env.SVC_BASE_URL + '/api/v3/banking/balance', { method: 'POST', body: '{}' }).then(async (r) => console.log(r.status, await r.text()))`;
    const result = await runCli(
      ['proxy', '--upstream', 'http://127.0.0.1:9', '--report-dir', join(dir, 'out'), '--', 'node', '-e', client],
      { cwd: dir, env: { PATH: process.env.PATH ?? '' } },
    );
    expect(result.stdout).toMatch(
      /│ 502 \{"status":false,"code":502,"message":"svc-conformance proxy: the upstream http:\/\/127\.0\.0\.1:9 did not answer/,
    );
    expect(result.stdout).toMatch(/POST \/api\/v3\/banking\/balance → 502 \(ECONNREFUSED\) {2}\(not judged\)/);
    expect(result.code).toBe(2);
    expect(reportIn(dir).verdict).toBe('inconclusive');
  });

  it('an https upstream: its certificate checked, a private CA given with --upstream-ca; refused without it (502)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-tls-'));
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    const tls = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) =>
      req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"over":"tls"}')),
    );
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    const upstream = `https://127.0.0.1:${(tls.address() as { port: number }).port}`;
    const client = [
      'node',
      '-e',
      `fetch(process.env.SVC_BASE_URL + '/x', { method: 'POST', body: '{}' }).then(async (r) => console.log('got', r.status, await r.text()))`,
    ];
    const trusted = await runCli(['proxy', '--upstream', upstream, '--upstream-ca', 'cert.pem', '--report-dir', 'a', '--', ...client], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
    });
    const untrusted = await runCli(['proxy', '--upstream', upstream, '--report-dir', 'b', '--', ...client], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
    });
    tls.close();
    expect(trusted.stdout).toMatch(/│ got 200 \{"over":"tls"\}/);
    expect(untrusted.stdout).toMatch(/│ got 502 .*did not answer: self[- ]signed certificate/);
  });

  it('stops after --requests exchanges, or once --for has passed on its clock', async () => {
    const upstream = createServer((req, res) =>
      req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')),
    );
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-'));
    const [first, second] = [await freePort(), await freePort()];
    const counted = runCli(['proxy', '--upstream', target, '--listen', `127.0.0.1:${first}`, '--requests', '2', '--report-dir', 'a'], {
      cwd: dir,
    });
    const clock = manualClock();
    const timed = runCli(['proxy', '--upstream', target, '--listen', `127.0.0.1:${second}`, '--for', '60', '--report-dir', 'b'], {
      cwd: dir,
      clock,
    });
    for (const port of [first, second]) while (!(await listens(`http://127.0.0.1:${port}`))) await new Promise((r) => setTimeout(r, 25));
    for (let i = 0; i < 2; i++) await fetch(`http://127.0.0.1:${first}/api/v3/banking/balance`, { method: 'POST', body: '{}' });
    expect((await counted).stdout.match(/→ 200/g)).toHaveLength(2);
    await clock.advance(59_000);
    await fetch(`http://127.0.0.1:${second}/api/v3/banking/balance`, { method: 'POST', body: '{}' });
    await clock.advance(1_000);
    expect((await timed).stdout.match(/→ 200/g)).toHaveLength(1);
    upstream.close();
  });

  it('as a process: SIGTERM is its normal end, the reports written and the exit status the verdict (2: nothing judged)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-'));
    const child = spawn(process.execPath, [BIN, 'proxy', '--upstream', 'http://127.0.0.1:9', '--report-dir', 'out'], {
      cwd: dir,
      env: cliEnv(),
    });
    let stdout = '';
    await new Promise<void>((listening) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (/listening on/.test(stdout)) listening();
      }),
    );
    child.kill('SIGTERM');
    const code = await new Promise((exited) => child.on('exit', exited));
    expect(code).toBe(2);
    expect(reportIn(dir).verdict).toBe('inconclusive');
  });

  it.each([
    [[], /proxy --upstream URL/],
    [['--upstream', 'ftp://x'], /--upstream takes an http or https URL/],
    [['--upstream', 'https://user:pw@x.example'], /without credentials/],
    [['--upstream', 'http://127.0.0.1:9', '--listen', 'nowhere'], /--listen takes HOST:PORT/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const result = await runCli(['proxy', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain('pw');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

/** A port nothing listens on now (the proxy takes it at once after). */
function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    }),
  );
}

/** Whether something accepts a connection at the URL (no request sent: the proxy would forward it). */
const listens = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname, () => (socket.end(), resolve(true))).on('error', () => resolve(false));
  });
