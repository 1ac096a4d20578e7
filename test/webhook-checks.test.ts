// The webhook checks' config paths (P-CFG webhooks, P-HOOK-5), against the reference sandbox on a
// clock 20 times faster (deliveries and retries are real network traffic, so a virtual clock
// cannot time them): no key, the kit registering its own receiver and putting the earlier
// registration back, a target already delivering to webhooks.url (a tunnel), a listen address in
// use, a target without the sandbox's registration request, and traffic at the listener that is not
// the target's (strays: ignored and counted, never judged). Every webhook check against sandboxes on real
// sockets and a real clock, several seconds of it: with the end-to-end tests.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledClock } from '../core/clock.js';
import { buildReport } from '../core/verdict.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { MERCHANT_A } from '../sandbox/tenants.js';
import type { TargetConfig } from '../suites/config.js';
import { executeCheck, newMeta } from '../suites/check-context.js';
import { ConformanceRun } from '../suites/run.js';
import { runNumberAt } from '../suites/settings.js';
import { webhookChecks } from '../suites/checks/webhooks.js';

const open: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

let runCounter = 0;

/** Every webhook check, run as a run runs them, against `sandbox` with `config`. */
async function judgeWebhooks(sandbox: RunningSandbox, config: TargetConfig, clock = scaledClock(20)) {
  const run = await ConformanceRun.open({
    target: { config },
    sections: [],
    clock,
    seed: 7,
    runs: 3,
    runNumber: runNumberAt(clock.now()) + runCounter++,
    timeoutMs: 5_000,
  });
  try {
    const results = await Promise.all(
      webhookChecks.map(async (check, i) => {
        const meta = newMeta(check);
        return { id: check.requirement, outcome: await executeCheck(check, run.state, meta, i), meta };
      }),
    );
    return results;
  } finally {
    await run.close();
  }
}

async function sandboxWith(options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, settleSeconds: 2, clock: scaledClock(20), ...options });
  open.push(() => sandbox.close());
  return sandbox;
}

const configOf = (sandbox: RunningSandbox, edit: (c: TargetConfig) => void = () => {}): TargetConfig => {
  const config = structuredClone(sandbox.config) as TargetConfig;
  config.profile = { ...config.profile, webhooks: { retryWithinSeconds: 30 } };
  edit(config);
  return config;
};

describe('the webhook checks and their config', () => {
  it('without webhooks in the config: every check skipped, naming the key', async () => {
    const sandbox = await sandboxWith();
    const results = await judgeWebhooks(
      sandbox,
      configOf(sandbox, (c) => delete c.webhooks),
    );
    expect(results.map((r) => r.outcome)).toEqual(webhookChecks.map(() => 'skipped'));
    for (const r of results) expect(r.meta.skipped).toBe('needs webhooks in the config');
  });

  it('without webhooks.url: the kit registers its receiver, passes a conforming sender, and puts the earlier registration back', async () => {
    const sandbox = await sandboxWith({ webhookUrl: 'http://127.0.0.1:9/developer-receiver' });
    const results = await judgeWebhooks(sandbox, configOf(sandbox));
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${r.meta.failure?.message ?? r.meta.skipped}`)).toEqual([]);
    expect(sandbox.app.webhooks.urlOf('merchant-a')).toBe('http://127.0.0.1:9/developer-receiver');
  });

  it('with webhooks.url (the target already delivers there, e.g. through a tunnel): no registration request is sent', async () => {
    // Where the kit will listen: a port known in advance, which the sandbox is told to deliver to.
    const port = await freePort();
    const recorded: RecordedExchange[] = [];
    const sandbox = await sandboxWith({ webhookUrl: `http://127.0.0.1:${port}/webhooks`, record: (x) => recorded.push(x) });
    const results = await judgeWebhooks(
      sandbox,
      configOf(sandbox, (c) => (c.webhooks = { listen: `127.0.0.1:${port}`, url: `http://127.0.0.1:${port}/webhooks` })),
    );
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => r.id)).toEqual([]);
    expect(recorded.filter((x) => x.path === '/sandbox/webhooks')).toEqual([]);
  });

  it('a listen address in use, or a target without the registration request: not judged (the run inconclusive), saying what to do', async () => {
    const busy = await listeningServer();
    const sandbox = await sandboxWith();
    const inUse = await judgeWebhooks(
      sandbox,
      configOf(sandbox, (c) => (c.webhooks = { listen: `127.0.0.1:${(busy.address() as AddressInfo).port}` })),
    );
    expect(inUse[0]!.outcome).toBe('skipped');
    expect(inUse[0]!.meta.inconclusive).toMatch(
      /^the kit's webhook receiver cannot listen for webhooks on 127\.0\.0\.1:\d+: the port is in use; choose another webhooks\.listen/,
    );

    // A target that answers 404 to POST /sandbox/webhooks (not the reference sandbox), and no webhooks.url.
    const config = configOf(sandbox, (c) => {
      c.baseUrl = `http://127.0.0.1:${(busy.address() as AddressInfo).port}`;
      c.webhooks = { listen: '127.0.0.1:0' };
    });
    const foreign = await judgeWebhooks(sandbox, config);
    expect(foreign[0]!.outcome).toBe('skipped');
    expect(foreign[0]!.meta.inconclusive).toMatch(
      /^webhooks\.url is not set and the target did not take the reference sandbox's registration request \(POST \/sandbox\/webhooks answered 404\): register a URL that reaches webhooks\.listen/,
    );
    expect(foreign[0]!.meta.skipped).not.toContain(MERCHANT_A.secretKey);
  });
});

describe("traffic that is not the target's at the kit's webhook listener", () => {
  it('a stray GET /, a POST to another path and an unmarked POST during the run: ignored, counted in a note, a conforming sender still passes', async () => {
    // The listener's port is picked in advance, so the strays know where to go.
    const port = await freePort();
    const strays: Array<Promise<{ status: number; type: string | null; body: string }>> = [];
    const stray = (path: string, init: RequestInit = {}) =>
      strays.push(
        fetch(`http://127.0.0.1:${port}${path}`, { ...init, signal: AbortSignal.timeout(5_000) }).then(async (r) => ({
          status: r.status,
          type: r.headers.get('content-type'),
          body: await r.text(),
        })),
      );
    // Sent when the sandbox has refused-delivered the first event about the kit's payouts: the
    // observation is then waiting for its retries (seconds of the run's clock), so they arrive during it.
    let sent = false;
    const sandbox = await sandboxWith({
      deliveryLog: (line) => {
        if (sent || !/ attempt 1 500 /.test(line)) return;
        sent = true;
        stray('/'); // a health check
        stray('/health', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }); // a tunnel's probe
        stray('/webhooks', { method: 'POST', body: 'ping' }); // no X-SIGNATURE, X-TIMESTAMP or X-EVENT-ID, and no event
      },
    });
    const results = await judgeWebhooks(
      sandbox,
      configOf(sandbox, (c) => (c.webhooks = { listen: `127.0.0.1:${port}` })),
    );
    expect(sent).toBe(true);
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${r.meta.failure?.message ?? r.meta.skipped}`)).toEqual([]);
    expect(byId['HOOK-DELIVERY-HEADERS']!.outcome).toBe('passed');
    expect(byId['HOOK-CANONICAL-BODY']!.outcome).toBe('passed');
    const answers = await Promise.all(strays);
    expect(answers.map((a) => a.status)).toEqual([404, 404, 400]);
    for (const a of answers) {
      expect(a.type).toBe('application/json');
      expect(JSON.parse(a.body)).toMatchObject({ error: expect.stringMatching(/not a webhook delivery/) });
    }
    // Said once in the report, however many checks saw it.
    const notes = buildReport({
      results: results.map((r) => ({ meta: r.meta, state: r.outcome, durationMs: 0 })),
      catalog: [],
      target: { baseUrl: sandbox.baseUrl, environment: 'sandbox', embeddedSandbox: false },
      seed: 7,
      runNumber: 1,
      runs: 3,
      strict: false,
      startedAt: new Date(),
      durationMs: 0,
      version: 'test',
    }).notes;
    expect(notes).toEqual([
      "3 stray requests to the kit's webhook listener were ignored, not judged as the target's deliveries: GET / (another path), POST /health (another path), POST /webhooks (no delivery headers and no event)",
    ]);
  });

  it("a sender's own faults are still its own: deliveries without X-EVENT-ID, signed with another secret, fail HOOK-DELIVERY-HEADERS and HOOK-SIGNATURE", async () => {
    const sandbox = await sandboxWith({ faults: ['hook-no-event-id', 'hook-separate-secret'] });
    const results = await judgeWebhooks(sandbox, configOf(sandbox));
    expect(results.filter((r) => r.outcome === 'failed').map((r) => r.id)).toEqual(['HOOK-DELIVERY-HEADERS', 'HOOK-SIGNATURE']);
    expect(results.find((r) => r.id === 'HOOK-DELIVERY-HEADERS')!.meta.failure?.message).toMatch(/^delivery #\d+: X-EVENT-ID missing/);
    expect(results.flatMap((r) => r.meta.notes ?? [])).toEqual([]);
  });

  it('a rightly signed delivery in the evidence of another failure has its X-SIGNATURE redacted: anyone holding the report could send it to a receiver again', async () => {
    const sandbox = await sandboxWith({ faults: ['hook-no-event-id'] });
    const results = await judgeWebhooks(sandbox, configOf(sandbox));
    const { evidence } = results.find((r) => r.id === 'HOOK-DELIVERY-HEADERS')!.meta;
    const sent = evidence[0]!.request;
    expect(sent.headers['x-timestamp']).toMatch(/^\d+$/);
    expect(sent.headers['x-signature']).toBe('[redacted]');
  });

  it('HOOK-SIGNATURE\'s evidence is the target\'s own X-SIGNATURE, and a sender that signs the event as it built it is explained, not "no known variant"', async () => {
    const sandbox = await sandboxWith({ faults: ['hook-sign-reserialized'] });
    const results = await judgeWebhooks(sandbox, configOf(sandbox));
    const { failure, evidence } = results.find((r) => r.id === 'HOOK-SIGNATURE')!.meta;
    expect(failure!.message).toMatch(
      /^delivery #\d+: X-SIGNATURE \(shown in the evidence\) does not cover the body as delivered \(the kit's HMAC of it begins [0-9a-f]{12}…\); diagnose: unsorted-keys/,
    );
    const sent = evidence[0]!.request;
    expect(sent.headers['x-signature']).toMatch(/^[0-9a-f]{64}$/);
    // Only the start of the kit's own HMAC, never one that signs the body as delivered.
    const expected = createHmac('sha256', MERCHANT_A.secretKey)
      .update(sent.body + sent.headers['x-timestamp'])
      .digest('hex');
    expect(failure!.message).not.toContain(expected);
    expect(JSON.stringify({ failure, evidence })).not.toContain(MERCHANT_A.secretKey);
  });

  it('deliveries that reach the listener at another path (a proxy that rewrites it): not judged, not blamed on the target', async () => {
    const port = await freePort();
    // The target delivers to webhooks.url; what is in front of the listener hands them on at /rewritten.
    const sandbox = await sandboxWith({ webhookUrl: `http://127.0.0.1:${port}/rewritten` });
    const results = await judgeWebhooks(
      sandbox,
      configOf(sandbox, (c) => (c.webhooks = { listen: `127.0.0.1:${port}`, url: 'https://hooks.example.test/svc' })),
    );
    const fired = results.find((r) => r.id === 'HOOK-EVENTS-FIRED')!;
    expect(fired.outcome).toBe('skipped');
    expect(fired.meta.inconclusive).toMatch(
      /^no webhook delivery reached the kit's receiver at http:\/\/127\.0\.0\.1:\d+\/webhooks within \d+ s of initiating two payouts, but POST \/rewritten came with delivery headers and was ignored: does the tunnel or proxy in front of webhooks\.listen change the path\? The listener takes deliveries at \/webhooks and at the path of webhooks\.url$/,
    );
    expect(results.filter((r) => r.outcome === 'failed').map((r) => r.id)).toEqual([]);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A server that answers every request 404 with a JSON envelope, and holds its port. */
async function listeningServer(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":false,"code":404,"message":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(() => new Promise((resolve) => server.close(resolve)));
  return server;
}
