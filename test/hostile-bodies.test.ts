import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERCHANT_A } from '../sandbox/tenants.js';
import { runBinAsync } from './cli-harness.js';

/**
 * Targets that answer with a body far larger than any answer of the interface: 10 or 100 MiB with a
 * Content-Length, or chunks that keep coming (bounded here at 512 MiB so the test itself ends).
 * The kit runs with a 160 MiB heap: holding one such body whole would crash it.
 */
const MIB = 1024 * 1024;
const HEAP = { NODE_OPTIONS: '--max-old-space-size=160' };
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

async function hostile(mode: 'medium' | 'large' | 'endless'): Promise<string> {
  const mib = { medium: 10, large: 100, endless: 512 }[mode];
  const block = Buffer.alloc(MIB, 'z');
  const server = createServer((req, res) => {
    req.resume();
    if (mode !== 'endless') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(mib * MIB) });
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
    }
    let sent = 0;
    const pump = () => {
      while (sent < mib) {
        sent += 1;
        if (!res.write(block)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (sent = Infinity));
    pump();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function configFor(dir: string, baseUrl: string): string {
  const path = join(dir, 'target.json');
  writeFileSync(
    path,
    JSON.stringify({
      baseUrl,
      environment: 'sandbox',
      merchant: { apiKey: MERCHANT_A.apiKey, secretKey: MERCHANT_A.secretKey, walletId: MERCHANT_A.walletId },
    }),
  );
  return path;
}

describe('a target answering huge or endless bodies is read with a cap', () => {
  let medium = '';
  let large = '';
  let endless = '';
  beforeAll(async () => {
    [medium, large, endless] = await Promise.all([hostile('medium'), hostile('large'), hostile('endless')]);
  });

  it.each([
    ['10 MiB bodies', () => medium, /the target sent 10485760 bytes; the kit kept the first 1048576 and discarded the rest/],
    ['100 MiB bodies', () => large, /the target sent more than 64 MiB and kept sending; the kit kept the first 1 MiB, stopped reading/],
    ['endless bodies', () => endless, /the target sent more than 64 MiB and kept sending; the kit kept the first 1 MiB, stopped reading/],
  ])(
    'run against %s finishes, in bounded memory, and says in the evidence what it discarded',
    async (_what, target, note) => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-bodies-'));
      const result = await runBinAsync(
        ['run', '--config', configFor(dir, target()), '--only', 'AUTH-MISSING-KEY', '--seed', '1', '--report-dir', join(dir, 'r')],
        { cwd: dir, env: HEAP },
      );
      expect(result.code, result.stderr).toBe(1);
      const report = readFileSync(join(dir, 'r', 'report.json'), 'utf8');
      expect(report).toMatch(note);
      expect(statSync(join(dir, 'r', 'report.html')).size).toBeLessThan(2 * MIB);
    },
    60_000,
  );

  it('replay prints the kept part and the note, not the whole body', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bodies-'));
    const result = await runBinAsync(['replay', '--config', configFor(dir, endless), '--path', '/api/v3/pg/order/create', '--body', '{}'], {
      cwd: dir,
      env: HEAP,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.length).toBeLessThan(64 * 1024);
    expect(result.stdout).toMatch(/stopped reading and closed the connection/);
  }, 60_000);
});

describe("verify-client's recording sandbox and a client sending an endless body", () => {
  it('answers 400 as soon as the body passes its limit and drops the connection; nothing past it is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bodies-'));
    const client = join(dir, 'flood.mjs');
    // Sends up to 512 MiB in chunks, stopping when an answer arrives: the test is bounded either way.
    writeFileSync(
      client,
      `
      import { request } from 'node:http';
      const url = new URL(process.env.SVC_BASE_URL + '/api/v3/pg/order/create');
      const block = Buffer.alloc(1 << 20, 'q');
      const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
      let sent = 0, answered = false;
      req.on('response', (res) => { answered = true; console.log('answer', res.statusCode, 'after', sent, 'MiB'); res.resume(); req.destroy(); });
      req.on('error', () => { if (!answered) console.log('connection dropped after', sent, 'MiB'); });
      const pump = () => { while (!answered && sent < 512) { sent++; if (!req.write(block)) return void req.once('drain', pump); } req.end(); };
      pump();
    `,
    );
    const result = await runBinAsync(['verify-client', '--report-dir', join(dir, 'r'), '--', process.execPath, client], {
      cwd: dir,
      env: HEAP,
    });
    const said = /(?:answer 400 after|connection dropped after) (\d+) MiB/.exec(result.stdout);
    expect(said, result.stdout + result.stderr).not.toBeNull();
    expect(Number(said![1])).toBeLessThan(64);
  }, 60_000);
});
