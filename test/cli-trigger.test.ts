// serve --webhook-url and trigger EVENT, judged by a receiver written here from the profile's words
// (P-HOOK-1, P-SIGN-1/2), not by the kit's signer or receiver: a developer's laptop, end to end.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../sandbox/options.js';
import { OPERATION_PATHS } from '../sandbox/paths.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import type { Currency } from '../schemas/types.js';
import { orderBody, payoutBody } from '../suites/requests.js';
import { runCli, spawnServe } from './cli-harness.js';

interface Seen {
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
}

/** A plain Node receiver that keeps every delivery's raw bytes and answers 200. */
async function independentReceiver(): Promise<{
  url: string;
  seen: Seen[];
  server: Server;
  waitFor(match: (s: Seen) => boolean, ms?: number): Promise<Seen>;
}> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    seen,
    server,
    async waitFor(match, ms = 10_000) {
      const until = Date.now() + ms;
      for (;;) {
        const found = seen.find(match);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no matching delivery in ${ms} ms; got ${seen.map((s) => s.raw.toString()).join('\n')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

/** Keys sorted at every depth, no whitespace, unicode as itself: the canonical text, written independently. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** trigger's environment for a running sandbox: its URL and the merchant's keys. */
const envOf = (sandbox: RunningSandbox) => ({
  SVC_BASE_URL: sandbox.baseUrl,
  SVC_API_KEY: sandbox.config.merchant.apiKey,
  SVC_SECRET_KEY: sandbox.config.merchant.secretKey,
  SVC_WALLET_ID: sandbox.config.merchant.walletId,
});
const eventOf = (s: Seen) =>
  JSON.parse(s.raw.toString('utf8')) as { event_id: string; event: string; created_at: unknown; data: Record<string, unknown> };
const closing: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closing) await close();
});

describe('serve --webhook-url + trigger', () => {
  it('trigger payout.failed delivers a correctly signed payout.failed to the receiver, and the console logs the attempt', async () => {
    const receiver = await independentReceiver();
    closing.push(() => new Promise((r) => receiver.server.close(r)));
    const configOut = join(mkdtempSync(join(tmpdir(), 'svc-trigger-')), 'sandbox.json');
    const { child, stdout, stderrMatching } = await spawnServe(['--quiet', '--config-out', configOut, '--webhook-url', receiver.url]);
    closing.push(() => Promise.resolve(child.kill('SIGTERM')));
    expect(stdout).toContain(`webhooks      ${receiver.url}`);
    const config = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { merchant: { secretKey: string } };

    const triggered = await runCli(['trigger', 'payout.failed', '--config', configOut]);
    expect(triggered.stderr).toBe('');
    expect(triggered.code).toBe(0);
    const id = /^payout\.failed: payout_order_id (\S+) \(FAILED\); the sandbox delivers payout\.failed to (\S+)\n$/.exec(triggered.stdout);
    expect(id?.[2]).toBe(receiver.url);

    const delivery = await receiver.waitFor((s) => eventOf(s).event === 'payout.failed');
    const event = eventOf(delivery);
    const timestamp = String(delivery.headers['x-timestamp']);
    const expected = createHmac('sha256', config.merchant.secretKey)
      .update(Buffer.concat([delivery.raw, Buffer.from(timestamp)]))
      .digest();
    expect(timingSafeEqual(Buffer.from(String(delivery.headers['x-signature']), 'hex'), expected)).toBe(true);
    expect(delivery.raw.toString('utf8')).toBe(canonical(event));
    expect(delivery.headers['content-type']).toMatch(/^application\/json/);
    expect(delivery.headers['x-event-id']).toBe(event.event_id);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
    expect(Number.isInteger(event.created_at)).toBe(true);
    expect(event.data).toMatchObject({ payout_order_id: id![1], status: 'FAILED' });

    const log = await stderrMatching(new RegExp(`webhook payout\\.failed ${event.event_id} attempt 1 200 \\d+ms`));
    expect(log).not.toContain(config.merchant.secretKey);
  });

  it('fires every event, each about the id it prints', async () => {
    const receiver = await independentReceiver();
    closing.push(() => new Promise((r) => receiver.server.close(r)));
    const sandbox = await startSandbox({ port: 0, webhookUrl: receiver.url });
    closing.push(() => sandbox.close());
    const env = envOf(sandbox);
    for (const name of [
      'payment.success',
      'payment.failed',
      'payment.processing',
      'payment.expired',
      'payout.success',
      'payout.failed',
      'payout.processing',
      'payout.reversed',
    ]) {
      const result = await runCli(['trigger', name], { env });
      expect(result.code, result.stderr).toBe(0);
      const [, kind, id] = /: (order_id|payout_order_id) (\S+) /.exec(result.stdout)!;
      await receiver.waitFor((s) => eventOf(s).event === name && eventOf(s).data[kind!] === id);
    }
  });

  it("builds its Create Order and Transaction Initiation bodies with the checks' own builders", async () => {
    const received: RecordedExchange[] = [];
    const sandbox = await startSandbox({ port: 0, record: (x) => received.push(x) });
    closing.push(() => sandbox.close());
    const env = envOf(sandbox);
    const bodyTo = (path: string) => JSON.parse(received.find((x) => x.path === path)!.body) as Record<string, unknown>;
    const paid = await runCli(['trigger', 'payment.success'], { env });
    expect(paid.code, paid.stderr).toBe(0);
    const order = bodyTo(OPERATION_PATHS.createOrder);
    expect(order).toEqual(orderBody(String(order.order_id), 'svc-conformance trigger'));
    const failed = await runCli(['trigger', 'payout.failed'], { env });
    expect(failed.code, failed.stderr).toBe(0);
    const payout = bodyTo(OPERATION_PATHS.transactionInitiation);
    expect(payout).toEqual(
      payoutBody(sandbox.config.merchant.walletId, String(payout.payout_order_id), '10.13', payout.currency as Currency),
    );
  });

  it('--to: a URL that is not http(s), or one the sandbox refuses (not on this machine), is one line, exit 2, and leaves the registration as it was', async () => {
    const receiver = await independentReceiver();
    closing.push(() => new Promise((r) => receiver.server.close(r)));
    const sandbox = await startSandbox({ port: 0, webhookUrl: receiver.url });
    closing.push(() => sandbox.close());
    const env = envOf(sandbox);
    for (const [to, reason] of [
      ['ftp://127.0.0.1/hooks', /--to/],
      ['http://10.1.2.3/hooks', /10\.1\.2\.3/],
    ] as const) {
      const refused = await runCli(['trigger', 'payout.failed', '--to', to], { env });
      expect(refused.code, refused.stdout + refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(reason);
      expect(refused.stderr.trimEnd().split('\n'), refused.stderr).toHaveLength(1);
    }
    // The registration is still the operator's: a plain trigger delivers there.
    const result = await runCli(['trigger', 'payout.failed'], { env });
    expect(result.code, result.stderr).toBe(0);
    const [, id] = /payout_order_id (\S+) /.exec(result.stdout)!;
    await receiver.waitFor((s) => eventOf(s).event === 'payout.failed' && eventOf(s).data.payout_order_id === id);
  });

  it("says no credential: not a URL's password (the sandbox's or --to's), nor a --to value that is not a URL", async () => {
    const receiver = await independentReceiver();
    closing.push(() => new Promise((r) => receiver.server.close(r)));
    const sandbox = await startSandbox({ port: 0 });
    closing.push(() => sandbox.close());
    const env = envOf(sandbox);
    const said = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

    const unreachable = await runCli(['trigger', 'payout.processing', '--to', receiver.url], {
      env: { ...env, SVC_BASE_URL: 'http://admin:hunter2pass@127.0.0.1:1' },
    });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(
      /^svc-conformance trigger: the webhook registration control request .* at http:\/\/\[redacted\]@127\.0\.0\.1:1 got no answer/,
    );
    expect(said(unreachable)).not.toContain('hunter2pass');

    const withPassword = await runCli(
      ['trigger', 'payout.processing', '--to', receiver.url.replace('http://', 'http://bob:topsecretpw@')],
      { env },
    );
    // The sandbox refuses a webhook URL with credentials; the refusal names the URL, its password hidden.
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toMatch(
      /^svc-conformance trigger: the sandbox refused the webhook URL http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/hooks: /,
    );
    expect(said(withPassword)).not.toContain('topsecretpw');

    const secretAsTo = await runCli(['trigger', 'payout.processing', '--to', sandbox.config.merchant.secretKey], { env });
    expect(secretAsTo).toMatchObject({
      code: 2,
      stderr: "svc-conformance trigger: --to takes the receiver's URL, e.g. http://127.0.0.1:4020/webhooks; what was given is not a URL\n",
    });
    expect(said(secretAsTo)).not.toContain(sandbox.config.merchant.secretKey);
  });

  it('refuses, exit 2 in one line: no event, an unknown one, no target, a target that is not the reference sandbox', async () => {
    expect(await runCli(['trigger'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance trigger: name an EVENT: payment\.success, .*\n$/),
    });
    expect(await runCli(['trigger', 'payout.done'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance trigger: no event "payout\.done"; the events are /),
    });
    expect(await runCli(['trigger', 'payout.failed'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance trigger: name the sandbox with --config F/),
    });
    expect(await runCli(['serve', '--webhook-url', 'ftp://127.0.0.1/hooks'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance serve: --webhook-url cannot be used: it is ftp, not http or https; e\.g\. /),
    });
    const other = await independentReceiver();
    closing.push(() => new Promise((r) => other.server.close(r)));
    const env = {
      SVC_BASE_URL: other.url.replace('/hooks', ''),
      SVC_API_KEY: 'pk_test_x',
      SVC_SECRET_KEY: 'sk_test_hidden_value',
      SVC_WALLET_ID: 'w',
    };
    const refused = await runCli(['trigger', 'payout.failed'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^svc-conformance trigger: the webhook registration control request \(POST \/sandbox\/webhooks\) at http:\/\/127\.0\.0\.1:\d+ answered HTTP 200; trigger drives the reference sandbox/,
    );
    expect(refused.stderr.split('\n')).toHaveLength(2);
    expect(refused.stderr).not.toContain('sk_test_hidden_value');
  });
});
