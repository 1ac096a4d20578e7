import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, runCli } from './cli-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
const vectors = JSON.parse(readFileSync(new URL('../signer/vectors/signing-vectors.json', import.meta.url), 'utf8')) as {
  vectors: Array<{ id: string; payload: string; secret: string; timestamp: number; canonical: string; message: string; signature: string }>;
};
// A realistic Create Order whose return_url has slashes, so escaped slashes change the text.
const order = vectors.vectors.find((v) => v.id === 'create-order-inr-full')!;
const bodyFile = join(dir, 'order.json');
writeFileSync(bodyFile, order.payload);
const SECRET = order.secret;

describe('svc-conformance sign', () => {
  it("prints the signature of a vector's payload, from a file and from stdin", async () => {
    const args = ['sign', '--secret', SECRET, '--timestamp', String(order.timestamp)];
    expect(await runCli([...args, '--file', bodyFile])).toEqual({ code: 0, stdout: order.signature + '\n', stderr: '' });
    expect((await runCli(args, { stdin: order.payload })).stdout).toBe(order.signature + '\n');
  });

  it('--json prints canonical, message and signature', async () => {
    const result = await runCli(['sign', '--secret', SECRET, '--timestamp', String(order.timestamp), '--file', bodyFile, '--json']);
    expect(JSON.parse(result.stdout)).toEqual({ canonical: order.canonical, message: order.message, signature: order.signature });
  });

  it('--body-out writes the canonical body, the exact bytes to send', async () => {
    const out = join(dir, 'canonical-body.json');
    const result = await runCli([
      'sign',
      '--secret',
      SECRET,
      '--timestamp',
      String(order.timestamp),
      '--file',
      bodyFile,
      '--body-out',
      out,
    ]);
    expect(result.stdout).toBe(order.signature + '\n');
    expect(readFileSync(out, 'utf8')).toBe(order.canonical);
  });

  it('takes the secret from SVC_SECRET_KEY when --secret is absent', async () => {
    const result = await runCli(['sign', '--timestamp', String(order.timestamp), '--file', bodyFile], { env: { SVC_SECRET_KEY: SECRET } });
    expect(result.stdout).toBe(order.signature + '\n');
  });

  it.each<[string, string[], RegExp, string?]>([
    [
      'a body that is not JSON',
      ['--timestamp', '1', '--secret', 's'],
      /^svc-conformance sign: the body in stdin is not JSON \(line 3, column 3\); sign signs JSON bodies only\n$/,
      '{"a":\n\n  oops',
    ],
    [
      'a missing file',
      ['--timestamp', '1', '--secret', 's', '--file', '/nonexistent/x.json'],
      /cannot read --file \/nonexistent\/x.json: no such file/,
    ],
    ['no body on a terminal', ['--timestamp', '1', '--secret', 's'], /no body given: pass --file/],
    ['a fractional timestamp', ['--timestamp', '1.5', '--secret', 's'], /not whole UNIX seconds/, '{}'],
    ['a millisecond timestamp', ['--timestamp', '1732147200123', '--secret', 's'], /looks like milliseconds/, '{}'],
    [
      'a number JSON allows but no signer can write',
      ['--timestamp', '1', '--secret', 's'],
      /the value at \$\.a is Infinity, not a JSON value/,
      '{"a":1e400}',
    ],
    ['a stray argument (a forgotten --file)', ['--timestamp', '1', '--secret', 's', 'body.json'], /unexpected argument "body.json"/, '{}'],
    ['no timestamp', ['--secret', 's'], /--timestamp T is required/, '{}'],
    ['no secret', ['--timestamp', '1'], /no secret key: pass --secret S or set SVC_SECRET_KEY/, '{}'],
    ['an unknown option', ['--timestamp', '1', '--secret', 's', '--sekret', 'x'], /unknown option '--sekret'/, '{}'],
  ])('refuses %s with one line and exit 2', async (_name, args, message, stdin) => {
    const result = await runCli(['sign', ...args], stdin === undefined ? {} : { stdin });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });
});

describe('svc-conformance diagnose', () => {
  const escaped = order.canonical.replaceAll('/', '\\/');
  const base = ['diagnose', '--secret', SECRET, '--timestamp', String(order.timestamp)];

  it('exits 0 on a match: the signature of the canonical text, and that text sent', async () => {
    const canonicalFile = join(dir, 'canonical.json');
    writeFileSync(canonicalFile, order.canonical);
    const result = await runCli([...base, '--signature', order.signature, '--file', canonicalFile]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/✓ signature matches/);
  });

  it('explains a real mismatch from a curl capture, and --json follows P-CLI', async () => {
    // A PHP-style client: slashes escaped. Signed with node's crypto directly, not with the kit.
    const { createHmac } = await import('node:crypto');
    const signature = createHmac('sha256', SECRET)
      .update(escaped + order.timestamp)
      .digest('hex');
    const capture = join(dir, 'capture.sh');
    writeFileSync(
      capture,
      `curl -X POST 'http://127.0.0.1:8080/api/v3/pg/order/create' \\\n  -H 'X-API-KEY: pk_test_demo' -H 'X-TIMESTAMP: ${order.timestamp}' \\\n  -H 'X-SIGNATURE: ${signature}' \\\n  --data-raw '${order.canonical.replaceAll("'", "'\\''")}'\n`,
    );
    const json = await runCli(['diagnose', '--secret', SECRET, '--request', capture, '--json']);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as {
      match: boolean;
      variants: string[];
      candidates: unknown[];
      detail: Record<string, unknown>;
    };
    expect(parsed.match).toBe(false);
    expect(parsed.variants).toEqual(['escaped-slashes']);
    expect(parsed.detail.divergence).toMatchObject({
      byteOffset: Buffer.byteLength(order.canonical.slice(0, order.canonical.indexOf('/'))),
    });
    expect(Object.keys(parsed)).toEqual(['match', 'variants', 'candidates', 'detail']);
    expect(json.stdout).not.toContain(SECRET);
  });

  describe('the commonest "why 401": the canonical text signed, the payload sent in its own key order', () => {
    // The payload as the client held it (insertion order); the signature over its canonical text.
    const sent = JSON.stringify(JSON.parse(order.payload));
    const sentFile = join(dir, 'as-sent.json');
    writeFileSync(sentFile, sent);

    it('is a mismatch with --file: exit 1, body-not-canonical, and the byte where sent and signed part', async () => {
      expect(sent).not.toBe(order.canonical);
      const result = await runCli([...base, '--signature', order.signature, '--file', sentFile]);
      expect(result.code).toBe(1);
      expect(result.stdout).not.toMatch(/signature matches/);
      expect(result.stdout).toMatch(/^✗ signature mismatch, explained by: body-not-canonical\n/);
      expect(result.stdout).toMatch(/you signed|signed the canonical text but sent other bytes/);
      expect(result.stdout).toMatch(
        /The bytes sent part from the text the sender signed at byte \d+:\n {4}signed  .*\n {4}sent {4}.*\n {14}\^/,
      );
    });

    it('is a mismatch with --request (a raw HTTP capture), and --json says so', async () => {
      const capture = join(dir, 'as-sent.http');
      writeFileSync(
        capture,
        `POST /api/v3/pg/order/create HTTP/1.1\r\nHost: 127.0.0.1:4010\r\nContent-Type: application/json\r\nX-API-KEY: pk_test_demo\r\nX-TIMESTAMP: ${order.timestamp}\r\nX-SIGNATURE: ${order.signature}\r\nContent-Length: ${Buffer.byteLength(sent)}\r\n\r\n${sent}`,
      );
      const text = await runCli(['diagnose', '--secret', SECRET, '--request', capture]);
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(/explained by: body-not-canonical/);
      const json = await runCli(['diagnose', '--secret', SECRET, '--request', capture, '--json']);
      expect(json.code).toBe(1);
      const parsed = JSON.parse(json.stdout) as { match: boolean; variants: string[]; detail: { sentDivergence?: { byteOffset: number } } };
      expect(parsed).toMatchObject({ match: false, variants: ['body-not-canonical'] });
      expect(parsed.detail.sentDivergence?.byteOffset).toBeGreaterThan(0);
    });
  });

  it('explains a webhook sender that delivers the canonical text but signs the event as it built it, with the same variants', async () => {
    // Fields in P-HOOK-2's order, data in the payout record's: a sender that signs JSON.stringify(event).
    const event = {
      event_id: 'evt_000042',
      event: 'payout.failed',
      created_at: 1763707212,
      data: {
        payout_id: 'PAY-1',
        payout_order_id: 'PO-1',
        wallet_id: 'WTR-1',
        status: 'FAILED',
        amount: '10.00',
        currency: 'INR',
        utr_number: '',
        message: 'Beneficiary bank rejected',
        amount_debited: 'NO',
        created_at: '2025-11-21 10:00:12',
      },
    };
    const delivered = JSON.stringify(
      JSON.parse(JSON.stringify(event), (_key, value: unknown) =>
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
          : value,
      ),
    );
    const { createHmac } = await import('node:crypto');
    const signature = createHmac('sha256', SECRET)
      .update(JSON.stringify(event) + '1763707215')
      .digest('hex');
    const capture = join(dir, 'delivery.http');
    writeFileSync(
      capture,
      `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1:4010\r\nContent-Type: application/json\r\nX-EVENT-ID: evt_000042\r\nX-TIMESTAMP: 1763707215\r\nX-SIGNATURE: ${signature}\r\n\r\n${delivered}`,
    );
    const json = await runCli(['diagnose', '--secret', SECRET, '--request', capture, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ match: false, variants: ['unsorted-keys'] });
    expect((await runCli(['diagnose', '--secret', SECRET, '--request', capture])).stdout).toMatch(
      /^✗ signature mismatch, explained by: unsorted-keys\n/,
    );
  });

  it('shortens the expected signature unless --show-expected: a whole one is a ready-to-send request', async () => {
    const args = [...base, '--signature', 'ab'.repeat(32), '--file', bodyFile];
    const short = await runCli(args);
    expect(short.code).toBe(1);
    expect(short.stdout).not.toContain(order.signature);
    expect(short.stdout).toContain(order.signature.slice(0, 12) + '…');
    expect((await runCli([...args, '--show-expected'])).stdout).toContain(order.signature);
  });

  it.each<[string, string[], RegExp]>([
    ['no timestamp', ['--signature', 'ab', '--file', bodyFile], /--timestamp T is required/],
    ['no signature', ['--timestamp', '1', '--file', bodyFile], /--signature SIG is required/],
    ['a missing body file', ['--timestamp', '1', '--signature', 'ab', '--file', '/nonexistent/body.json'], /cannot read --file/],
    ['a timestamp that is not a number', ['--signature', 'ab', '--timestamp', 'soon', '--file', bodyFile], /not a UNIX time/],
    ['an unreadable capture', ['--request', '-'], /capture:/],
  ])('refuses %s with exit 2', async (_name, args, message) => {
    const result = await runCli(['diagnose', '--secret', SECRET, ...args], { stdin: 'hello world' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain(SECRET);
  });
});

describe('the svc-conformance executable', () => {
  it('runs from bin/ (built by npm run build): help, sign, and exit codes', () => {
    expect(runBin(['--help']).stdout).toMatch(/Usage: svc-conformance <command>/);
    const signed = runBin(['sign', '--timestamp', String(order.timestamp), '--file', bodyFile], { env: { SVC_SECRET_KEY: SECRET } });
    expect(signed).toMatchObject({ code: 0, stdout: order.signature + '\n' });
    const bad = runBin(['sign', '--timestamp', 'x', '--secret', SECRET], { stdin: '{}' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('svc-conformance sign: --timestamp "x" is not whole UNIX seconds; use e.g. --timestamp "$(date +%s)"\n');
  });

  it('rejects an unknown command, listing the ones there are', () => {
    expect(runBin(['frobnicate'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /unknown command `frobnicate`; available: run, list, serve, trigger, verify-client, verify-receiver, verify-report, judge, proxy, sign, diagnose, replay, openapi/,
      ),
    });
  });
});
