// judge --har (P-TRAFFIC): a real client's traffic with a server, recorded as HAR 1.2 by a plain forwarder
// between them (the test's own, below), judged on both sides: the client by P-CLIENT, the server by what
// its answers show; each side says what it judged, and a side the traffic did not exercise is not judged.
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../core/report.js';
import { startSandbox, type FaultName } from '../sandbox/index.js';
import { validateSchema } from '../schemas/index.js';
import { canonicalize } from '../signer/canonical.js';
import { runCli } from './cli-harness.js';

const closers: Array<() => Promise<unknown>> = [];
afterAll(() => Promise.all(closers.map((close) => close())));

const pairs = (headers: IncomingMessage['rawHeaders']) =>
  headers.flatMap((name, i) => (i % 2 === 0 ? [{ name, value: headers[i + 1]! }] : []));

/** Forwards every request to `upstream` unchanged and keeps each exchange as a HAR 1.2 entry. */
async function recorder(upstream: string): Promise<{ url: string; har: () => string }> {
  const entries: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const started = new Date();
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const out = request(new URL(req.url!, upstream), { method: req.method, headers: req.headers }, (answer) => {
        const back: Buffer[] = [];
        answer.on('data', (c: Buffer) => back.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(back).toString('utf8');
          entries.push({
            startedDateTime: started.toISOString(),
            time: Date.now() - started.getTime(),
            request: {
              method: req.method,
              url: `http://${req.headers.host}${req.url}`,
              headers: pairs(req.rawHeaders),
              postData: { mimeType: 'application/json', text: body },
              bodySize: chunks.length,
            },
            response: { status: answer.statusCode, headers: pairs(answer.rawHeaders), content: { size: back.length, text } },
          });
          res.writeHead(answer.statusCode!, answer.headers).end(text);
        });
      });
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    har: () => JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }),
  };
}

/** The kit's good Node client through the recorder to a sandbox (with `faults`): the HAR, and the sandbox's config pointed at the recorder. */
async function recordedClient(faults: FaultName[] = []) {
  const sandbox = await startSandbox({ port: 0, faults });
  closers.push(() => sandbox.close());
  const rec = await recorder(sandbox.baseUrl);
  const example = new URL('../examples/good-client.mjs', import.meta.url).href;
  const { runGoodClient } = (await import(example)) as {
    runGoodClient: (env: Record<string, string>, o: object) => Promise<number>;
  };
  const { merchant } = sandbox.config;
  const env = { SVC_BASE_URL: rec.url, SVC_API_KEY: merchant.apiKey, SVC_SECRET_KEY: merchant.secretKey, SVC_WALLET_ID: merchant.walletId };
  expect(await runGoodClient(env, { log: () => {} })).toBe(0);
  const dir = mkdtempSync(join(tmpdir(), 'svc-judge-'));
  writeFileSync(join(dir, 'traffic.har'), rec.har());
  writeFileSync(join(dir, 'target.json'), JSON.stringify({ ...sandbox.config, baseUrl: rec.url }));
  return { dir, secret: merchant.secretKey };
}

const judge = async (dir: string, ...extra: string[]) => {
  const result = await runCli(['judge', '--har', 'traffic.har', '--report-dir', 'out', ...extra], { cwd: dir });
  const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report;
  return { ...result, report };
};
const failed = (report: Report) => report.requirements.filter((r) => r.status === 'failed').map((r) => r.id);

/** The recording replaced by one Create Order sending `body`, signed over `signed` now; the signature is returned. */
function oneCreate(dir: string, secret: string, signed: string, body: string, answer: { status: number; text: string }): string {
  const config = JSON.parse(readFileSync(join(dir, 'target.json'), 'utf8')) as { baseUrl: string; merchant: { apiKey: string } };
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', secret).update(`${signed}${timestamp}`).digest('hex');
  const headers = {
    'content-type': 'application/json',
    'x-api-key': config.merchant.apiKey,
    'x-timestamp': timestamp,
    'x-signature': signature,
  };
  const entry = {
    startedDateTime: new Date().toISOString(),
    time: 3,
    request: {
      method: 'POST',
      url: `${config.baseUrl}/api/v3/pg/order/create`,
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      postData: { text: body },
    },
    response: { status: answer.status, headers: [{ name: 'content-type', value: 'application/json' }], content: { text: answer.text } },
  };
  writeFileSync(join(dir, 'traffic.har'), JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
  return signature;
}

describe.concurrent('judge --har', () => {
  it('a conforming client and server: both sides conformant, each on what the traffic exercised; no secret in any report', async () => {
    const { dir, secret } = await recordedClient();
    const { code, stdout, report } = await judge(dir, '--config', 'target.json');
    expect(failed(report), stdout).toEqual([]);
    expect(code).toBe(0);
    expect(validateSchema('report', report)).toEqual({ valid: true, errors: [] });
    expect(report.sides?.client.verdict).toBe('conformant');
    expect(report.sides?.server.verdict).toBe('conformant');
    expect(report.sides!.server.coverage.judged).toBeGreaterThan(3);
    expect(report.sides!.server.coverage.judged).toBeLessThan(report.sides!.server.coverage.total);
    expect(report.requirements.find((r) => r.id === 'AUTH-ACCEPT')?.status).toBe('passed');
    expect(report.requirements.find((r) => r.id === 'CLIENT-SIGNATURE')?.status).toBe('passed');
    expect(stdout).toMatch(/ {2}POST \/api\/v3\/pg\/order\/create → 20[01]\n/);
    expect(report.notes).toContainEqual(expect.stringMatching(/^traffic judges only what it exercised: \d+ exchange/));
    // What no traffic rule judges is said so, not "left out by the options"; traffic has no seed to rerun.
    expect(stdout).toMatch(/not judged: \d+ not judged from traffic: run sends what judges it/);
    expect(stdout).not.toMatch(/seed \d+/);
    for (const file of ['report.json', 'junit.xml', 'report.html'])
      expect(readFileSync(join(dir, 'out', file), 'utf8')).not.toContain(secret);
  });

  it('a server whose answers break a rule: its side is not conformant, the client side still conformant, the exchange names the rule', async () => {
    const { dir } = await recordedClient(['order-code-mismatch']);
    const { code, stdout, report } = await judge(dir, '--config', 'target.json');
    expect(code).toBe(1);
    expect(failed(report)).toEqual(['ORDER-ENVELOPE']);
    expect(report.sides).toMatchObject({ client: { verdict: 'conformant' }, server: { verdict: 'not-conformant' } });
    expect(stdout).toMatch(/POST \/api\/v3\/pg\/order\/create → 20[01] {2}✗ ORDER-ENVELOPE/);
  });

  it('without a config: the API found by its paths, the signature rules not judged and said so', async () => {
    const { dir } = await recordedClient();
    const { code, report } = await judge(dir);
    expect(code).toBe(0);
    const signature = report.requirements.find((r) => r.id === 'CLIENT-SIGNATURE');
    expect(signature).toMatchObject({ status: 'skipped', skipReason: expect.stringMatching(/no secret to verify signatures with/) });
    expect(report.requirements.find((r) => r.id === 'AUTH-ACCEPT')).toMatchObject({ status: 'skipped', skipReason: signature?.skipReason });
  });

  it('without a config, a server that breaks a rule: failed with its evidence, each signature redacted (none can be told right)', async () => {
    const { dir } = await recordedClient(['order-code-mismatch']);
    const { code, stderr, report } = await judge(dir);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const envelope = report.requirements.find((r) => r.id === 'ORDER-ENVELOPE');
    expect(envelope?.status).toBe('failed');
    expect(envelope?.evidence[0]?.exchanges[0]?.request.headers['x-signature']).toBe('[redacted]');
  });

  it("explains a signature that does not match with diagnose's variants (P-TRAFFIC-2)", async () => {
    const { dir, secret } = await recordedClient();
    const order = { order_id: 'PRETTY-1', order_amount: '10.00', order_currency: 'INR' };
    const answer = { status: 401, text: '{"status":false,"code":401,"message":"bad signature"}' };
    // Signed over the canonical text, sent pretty-printed.
    oneCreate(dir, secret, canonicalize(order), JSON.stringify(order, null, 2), answer);
    const { report } = await judge(dir, '--config', 'target.json');
    const evidence = report.requirements.find((r) => r.id === 'CLIENT-SIGNATURE')?.evidence[0];
    expect(evidence?.message).toMatch(/the signature does not cover the bytes sent; diagnose: body-not-canonical/);
    // The answer is the observed server's, not the kit's sandbox's.
    const canonical = report.requirements.find((r) => r.id === 'CLIENT-CANONICAL-BODY')?.evidence[0];
    expect(canonical?.message).toMatch(/its signature covers the canonical text, not these bytes: .*\(the server answered 401\)/);
    expect(report.sides?.server.verdict).toBe('conformant');
  });

  it('without a config, a client that signs a body not canonical: no claim on what its signature covers, and no signature shown', async () => {
    const { dir, secret } = await recordedClient();
    const body = JSON.stringify({ order_id: 'PRETTY-2', order_amount: '10.00', order_currency: 'INR' }, null, 2);
    const signature = oneCreate(dir, secret, body, body, { status: 400, text: '{"status":false}' });
    const { report } = await judge(dir);
    const canonical = report.requirements.find((r) => r.id === 'CLIENT-CANONICAL-BODY');
    expect(canonical?.status).toBe('failed');
    expect(canonical?.evidence[0]?.message).toMatch(/with no secret, which text its signature covers is not known/);
    for (const file of ['report.json', 'junit.xml', 'report.html'])
      expect(readFileSync(join(dir, 'out', file), 'utf8')).not.toContain(signature);
  });

  it('refuses what is not a HAR with one line and exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-judge-'));
    writeFileSync(join(dir, 'not.har'), '<html>');
    writeFileSync(join(dir, 'empty.har'), '{"log":{}}');
    for (const [file, why] of [
      ['not.har', /not\.har is not JSON/],
      ['empty.har', /empty\.har has no log\.entries/],
      ['missing.har', /cannot read --har missing\.har: no such file/],
    ] as const) {
      const result = await runCli(['judge', '--har', file], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(why);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await runCli(['judge'], { cwd: dir })).stderr).toMatch(/judge --har FILE/);
  });
});
