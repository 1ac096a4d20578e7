// The webhook checks' config paths (P-CFG webhooks, P-HOOK-5), against the reference sandbox on a
// clock 20 times faster (deliveries and retries are real network traffic, so a virtual clock
// cannot time them): no key, the kit registering its own receiver and putting the earlier
// registration back, a target already delivering to webhooks.url (a tunnel), a listen address in
// use, and a target without the sandbox's registration request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledClock } from '../../core/clock.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import type { RecordedExchange } from '../../sandbox/options.js';
import { MERCHANT_A } from '../../sandbox/tenants.js';
import type { TargetConfig } from '../config.js';
import { closeRunState, createRunState, executeCheck, newMeta } from '../context.js';
import { runNumberAt } from '../ids.js';
import { webhookChecks } from './webhooks.js';

const open: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

let runCounter = 0;

/** Every webhook check, run as a run runs them, against `sandbox` with `config`. */
async function judgeWebhooks(sandbox: RunningSandbox, config: TargetConfig, clock = scaledClock(20)) {
  const state = createRunState({ clock, config, seed: 7, runs: 3, runNumber: runNumberAt(clock.now()) + runCounter++, allowProduction: false, timeoutMs: 5_000 });
  try {
    const results = await Promise.all(webhookChecks.map(async (check, i) => {
      const meta = newMeta(check);
      return { id: check.requirement, outcome: await executeCheck(check, state, meta, i), meta };
    }));
    return results;
  } finally {
    await closeRunState(state);
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
    const results = await judgeWebhooks(sandbox, configOf(sandbox, (c) => delete c.webhooks));
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
    const results = await judgeWebhooks(sandbox, configOf(sandbox, (c) => (c.webhooks = { listen: `127.0.0.1:${port}`, url: `http://127.0.0.1:${port}/webhooks` })));
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => r.id)).toEqual([]);
    expect(recorded.filter((x) => x.path === '/sandbox/webhooks')).toEqual([]);
  });

  it('a listen address in use, or a target without the registration request: not judged (the run inconclusive), saying what to do', async () => {
    const busy = await listeningServer();
    const sandbox = await sandboxWith();
    const inUse = await judgeWebhooks(sandbox, configOf(sandbox, (c) => (c.webhooks = { listen: `127.0.0.1:${(busy.address() as AddressInfo).port}` })));
    expect(inUse[0]!.outcome).toBe('skipped');
    expect(inUse[0]!.meta.inconclusive).toMatch(/^the kit's webhook receiver cannot listen for webhooks on 127\.0\.0\.1:\d+: the port is in use; choose another webhooks\.listen/);

    // A target that answers 404 to POST /sandbox/webhooks (not the reference sandbox), and no webhooks.url.
    const config = configOf(sandbox, (c) => {
      c.baseUrl = `http://127.0.0.1:${(busy.address() as AddressInfo).port}`;
      c.webhooks = { listen: '127.0.0.1:0' };
    });
    const foreign = await judgeWebhooks(sandbox, config);
    expect(foreign[0]!.outcome).toBe('skipped');
    expect(foreign[0]!.meta.inconclusive).toMatch(/^webhooks\.url is not set and the target did not take the reference sandbox's registration request \(POST \/sandbox\/webhooks answered 404\): register a URL that reaches webhooks\.listen/);
    expect(foreign[0]!.meta.skipped).not.toContain(MERCHANT_A.secretKey);
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
