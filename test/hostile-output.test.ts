import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayLines } from '../cli/client-process.js';
import { visible } from '../common/visible.js';
import { MERCHANT_A } from '../sandbox/tenants.js';
import { runBinAsync } from './cli-harness.js';

/** What a hostile target puts in its answers: retitle the window, clear the screen, reverse text, C1 CSI, NUL. */
const NASTY = '\u001b]0;pwned\u0007\u001b[2J\u202eevil\u202c\u009b31m\u0000\u2028';
const RAW = /[\u0000\u0007\u001b\u009b\u202e\u2028]/;
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // Plain text, so the characters arrive raw (a JSON encoder would escape the C0 ones itself).
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'x-note': 'a\u009bb' });
      res.end(`refused ${NASTY}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('control and bidi characters from a target never reach a terminal or a report raw', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-escapes-'));
  const config = () => {
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
  };

  it('visible() escapes them and leaves ordinary text, tabs and non-ASCII alone', () => {
    expect(visible(NASTY)).toBe('\\x1b]0;pwned\\x07\\x1b[2J\\u202eevil\\u202c\\x9b31m\\x00\\u2028');
    expect(visible('Zoë\tpaid ₹150.00\nok', { keepNewlines: true })).toBe('Zoë\tpaid ₹150.00\nok');
  });

  it('replay shows the answer with its escapes visible', async () => {
    const result = await runBinAsync(['replay', '--config', config(), '--path', '/api/v3/pg/order/create', '--body', '{}'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(RAW);
    expect(result.stdout).toContain('\\x1b]0;pwned\\x07');
    expect(result.stdout).toContain('x-note: a\\x9bb');
  });

  it('run: the console and all three reports show them escaped; report.json keeps the value', async () => {
    const result = await runBinAsync(['run', '--config', config(), '--only', 'AUTH-', '--seed', '3', '--report-dir', join(dir, 'r')], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    const file = (name: string) => readFileSync(join(dir, 'r', name), 'utf8');
    for (const [where, text] of Object.entries({
      stdout: result.stdout,
      stderr: result.stderr,
      'report.json': file('report.json'),
      'junit.xml': file('junit.xml'),
      'report.html': file('report.html'),
    })) {
      expect(RAW.test(text), `${where} holds a raw control or bidi character`).toBe(false);
    }
    expect(file('report.html')).toContain('\\x1b]0;pwned');
    expect(file('report.json')).toContain(String.raw`\u202e`);
    expect(JSON.stringify(JSON.parse(file('report.json')))).toContain('\u202eevil');
  });
});

describe("verify-client's relay of a client's output", () => {
  const collect = () => {
    const lines: string[] = [];
    return {
      lines,
      relay: relayLines(
        (text) => lines.push(text),
        (text) => text,
      ),
    };
  };

  it('passes on a last line that has no newline', () => {
    const { lines, relay } = collect();
    relay.data(Buffer.from('first\nlast without newline'));
    relay.end();
    expect(lines).toEqual(['  │ first\n', '  │ last without newline\n']);
  });

  it('keeps a multi-byte character split across chunks whole', () => {
    const { lines, relay } = collect();
    const bytes = Buffer.from('₹150\n');
    relay.data(bytes.subarray(0, 2));
    relay.data(bytes.subarray(2));
    relay.end();
    expect(lines).toEqual(['  │ ₹150\n']);
  });

  it('cuts an endless line, saying how much it left out, instead of buffering it', () => {
    const { lines, relay } = collect();
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < 64; i++) relay.data(chunk);
    relay.data(Buffer.from('\nnext\n'));
    relay.end();
    expect(lines).toHaveLength(2);
    expect(lines[0]!.length).toBeLessThan(17 * 1024);
    expect(lines[0]).toMatch(/… \[\d+ more characters of this line not shown\]\n$/);
    expect(lines[0]).toContain(`[${64 * 1024 * 1024 - 16 * 1024} more characters`);
    expect(lines[1]).toBe('  │ next\n');
  });

  it('end to end: a client whose last line has no newline, and one that prints 64 MiB without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-relay-'));
    const client = join(dir, 'client.mjs');
    writeFileSync(
      client,
      `
      await fetch(process.env.SVC_BASE_URL + '/api/v3/banking/balance', { method: 'POST' }).catch(() => {});
      const block = 'y'.repeat(1 << 20);
      for (let i = 0; i < 64; i++) process.stderr.write(block);
      process.stderr.write('\\n');
      process.stdout.write('the last words, no newline');
    `,
    );
    const result = await runBinAsync(['verify-client', '--report-dir', join(dir, 'r'), '--', process.execPath, client], { cwd: dir });
    expect(result.stdout).toContain('  │ the last words, no newline\n');
    expect(result.stderr.length).toBeLessThan(64 * 1024);
    expect(result.stderr).toMatch(/more characters of this line not shown/);
  });
});
