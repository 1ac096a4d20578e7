// The run's webhook session gives the registration back when it closes, asking again when a control
// request got no answer at all: a connection the target closed as it went idle (a keep-alive race on
// a loaded machine) says nothing about where the target delivers.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CLEANUP_BOUND_MS } from '../cli/interrupt.js';
import { systemClock } from '../core/clock.js';
import { manualClock } from '../core/clock-test-support.js';
import type { TargetConfig } from './config.js';
import { TargetClient, type Exchange, type SendOptions } from './http.js';
import type { RunHold } from './settings.js';
import { openWebhookSession, RESTORE_WITHIN_MS } from './webhook-session.js';

const config = {
  baseUrl: 'http://127.0.0.1:9',
  environment: 'sandbox',
  merchant: { apiKey: 'pk_test_session', secretKey: 'sk_test_session', walletId: 'WAL-1' },
  webhooks: { listen: '127.0.0.1:0' },
  target: 'reference-sandbox',
} as TargetConfig;

const answered = (json: unknown) => ({ response: { status: 200, json } }) as unknown as Exchange;
const unanswered = {
  error: { code: 'closed', message: '127.0.0.1:9 closed the connection without a complete HTTP answer' },
} as unknown as Exchange;

/** A target that drops the first of each kind of registration request, then answers as the sandbox does. */
function droppingTarget() {
  const asked: string[] = [];
  let registered: string | null = null;
  const seen = new Set<string>();
  const control = (options: SendOptions): Exchange => {
    const payload = options.payload as { url?: string | null };
    const kind = 'url' in payload ? 'put' : 'question';
    asked.push(kind);
    if (!seen.has(kind)) {
      seen.add(kind);
      return unanswered;
    }
    if (kind === 'question') return answered({ data: { url: registered } });
    const previous = registered;
    registered = payload.url ?? null;
    return answered({ data: { url: registered, previous_url: previous } });
  };
  const client = {
    send: (options: SendOptions) => Promise.resolve(control(options)),
    redact: (text: string) => text,
    sibling: () => client,
    close: () => Promise.resolve(),
  } as unknown as TargetClient;
  // The run's first request (registering the kit's receiver) goes through the run's own sender.
  const send = (options: SendOptions) => {
    const payload = options.payload as { url: string };
    registered = payload.url;
    return Promise.resolve(answered({ data: { url: registered, previous_url: 'http://127.0.0.1:7/before' } }));
  };
  return { client, send, asked, registration: () => registered };
}

describe('registering with the target', () => {
  it('only with a declared reference sandbox: otherwise it sends nothing and says to give webhooks.url', async () => {
    const sent: unknown[] = [];
    const { target: _, ...undeclared } = config;
    const send = (options: unknown) => {
      sent.push(options);
      return Promise.reject(new Error('nothing may be sent'));
    };
    await expect(openWebhookSession(undeclared, systemClock, send, undefined as never)).rejects.toThrow(
      /^webhooks\.url is not set, and the config does not declare the reference sandbox/,
    );
    expect(sent).toEqual([]);
  });

  it('a registration answered 200 with "data": null was not taken: inconclusive, saying what came back', async () => {
    const target = droppingTarget();
    const send = () => Promise.resolve(answered({ status: true, data: null }));
    await expect(openWebhookSession(config, systemClock, send, target.client)).rejects.toThrow(
      /the target did not take the reference sandbox's registration request \(POST \S+ answered 200\)/,
    );
  });
});

describe('closing the webhook session', () => {
  it('asks again when a registration request got no answer at all, and puts the earlier registration back', async () => {
    const target = droppingTarget();
    const opened = await openWebhookSession(config, systemClock, target.send, target.client);
    expect(await opened.close()).toBeUndefined();
    expect(target.asked).toEqual(['question', 'question', 'put', 'put']);
    expect(target.registration()).toBe('http://127.0.0.1:7/before');
  });
});

const EARLIER = 'http://127.0.0.1:7/before';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** How the fake target answers one control request (`question`: `{}`), or undefined for as the sandbox does. */
type Behaviour = (kind: 'question' | 'put', url: string | null | undefined, res: ServerResponse) => Promise<boolean> | boolean;

/**
 * The reference sandbox's control endpoint on loopback, answering as it does unless `behave` answers
 * first; `run` is the run's client, `stopped` one that sends nothing more (interrupted).
 */
async function controlTarget(behave: Behaviour = () => false) {
  let registered: string | null = EARLIER;
  const asked: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on(
      'end',
      () =>
        void (async () => {
          const payload = JSON.parse(body) as { url?: string | null };
          const kind = 'url' in payload ? 'put' : 'question';
          asked.push(kind === 'put' ? `put ${String(payload.url)}` : 'question');
          if (await behave(kind, payload.url, res)) return;
          const previous = registered;
          if (kind === 'put') registered = payload.url ?? null;
          const data = kind === 'put' ? { url: registered, previous_url: previous } : { url: registered };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: true, data }));
        })(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = { ...config, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  const interrupt = new AbortController();
  const clock = manualClock();
  const run = new TargetClient(target, { timeoutMs: 1_000, clock, interrupted: interrupt.signal });
  closers.push(async () => {
    await run.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    run,
    clock,
    asked,
    interrupt: () => interrupt.abort('SIGINT'),
    registration: () => registered,
    set: (url: string | null) => void (registered = url),
  };
}

const refuse = (res: ServerResponse, status: number, message: string) =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: false, code: status, message }));

describe('putting the registration back', () => {
  it("on a client of its own: the run's, interrupted, sends nothing more", async () => {
    const target = await controlTarget();
    const opened = await openWebhookSession(config, target.clock, (o) => target.run.send(o), target.run);
    expect(target.registration()).toBe(opened.session.url);
    target.interrupt();
    expect((await target.run.send({ label: 'after', path: '/x' })).error?.code).toBe('stopped');
    expect(await opened.close()).toBeUndefined();
    expect(target.registration()).toBe(EARLIER);
  });

  it('when the question is refused (its `{}` used up by other runs), from the answer to putting it back', async () => {
    const target = await controlTarget(
      (kind, _url, res) => kind === 'question' && (refuse(res, 401, 'this request was already received'), true),
    );
    const opened = await openWebhookSession(config, target.clock, (o) => target.run.send(o), target.run);
    expect(await opened.close()).toBeUndefined();
    expect(target.registration()).toBe(EARLIER);
    expect(target.asked.at(-1)).toBe(`put ${EARLIER}`);
  });

  it('unasked, gives back a registration someone else made during the run, and says it left theirs', async () => {
    const THEIRS = 'http://127.0.0.1:9/theirs';
    const target = await controlTarget(
      (kind, _url, res) => kind === 'question' && (refuse(res, 401, 'this request was already received'), true),
    );
    const opened = await openWebhookSession(config, target.clock, (o) => target.run.send(o), target.run);
    target.set(THEIRS);
    expect(await opened.close()).toBe("left the target's webhook registration to whoever changed it during the run");
    expect(target.registration()).toBe(THEIRS);
    expect(target.asked.slice(-2)).toEqual([`put ${EARLIER}`, `put ${THEIRS}`]);
  });

  it('says why it could not: the status and what the target said, redacted', async () => {
    const target = await controlTarget(
      (kind, url, res) =>
        kind === 'put' && url === EARLIER && (refuse(res, 403, `url must be on this machine (${config.merchant.secretKey})`), true),
    );
    const opened = await openWebhookSession(config, target.clock, (o) => target.run.send(o), target.run);
    const said = await opened.close();
    expect(said).toBe(
      `could not restore the webhook registration (the target answered 403 "url must be on this machine ([redacted:secret])"): the target may still deliver to the kit's closed receiver ${opened.session.url}; register ${EARLIER} again`,
    );
  });

  it(`within ${RESTORE_WITHIN_MS / 1000} s of the run's clock, less than an interrupt's bound, and says when that ran out`, async () => {
    expect(RESTORE_WITHIN_MS).toBeLessThan(CLEANUP_BOUND_MS);
    // The question is answered only once the restore's time is spent (a target that holds it).
    const target = await controlTarget(async (kind, _url, res) => {
      if (kind !== 'question') return false;
      await target.clock.advance(RESTORE_WITHIN_MS);
      refuse(res, 503, 'busy');
      return true;
    });
    const opened = await openWebhookSession(config, target.clock, (o) => target.run.send(o), target.run);
    const said = await opened.close();
    expect(said).toContain(
      `could not restore the webhook registration (asked where it delivers, the target answered 503 "busy"; put back, not sent: the run stopped: it reached its time budget (the ${RESTORE_WITHIN_MS / 1000} s given to putting the registration back))`,
    );
    expect(target.registration()).toBe(opened.session.url);
  });

  it("interrupted, says in the interrupt's line why it could not, redacted", async () => {
    const target = await controlTarget(
      (kind, url, res) => kind === 'put' && url === EARLIER && (refuse(res, 403, `not today (${config.merchant.secretKey})`), true),
    );
    let undo: (() => Promise<unknown>) | undefined;
    const hold: RunHold = (_what, u) => ((undo = u), () => {});
    await openWebhookSession(config, target.clock, (o) => target.run.send(o), target.run, hold);
    target.interrupt();
    expect(await undo!()).toBe(
      `could not restore the target's webhook registration (the target answered 403 "not today ([redacted:secret])"): the kit's receiver is gone; register ${EARLIER} again`,
    );
  });

  it("held until it is put back: an interrupt during the run's own close waits for it, not exits halfway", async () => {
    const target = await controlTarget();
    let undo: (() => Promise<unknown>) | undefined;
    const hold: RunHold = (_what, u) => ((undo = u), () => void (undo = undefined));
    const opened = await openWebhookSession(config, target.clock, (o) => target.run.send(o), target.run, hold);
    const closing = opened.close();
    expect(undo).toBeDefined();
    expect(await undo!()).toBeUndefined();
    expect(target.registration()).toBe(EARLIER);
    await closing;
    expect(undo).toBeUndefined();
  });

  it('held from the moment the registration is sent: interrupted while it is out, puts back what it replaced once it is answered', async () => {
    const target = await controlTarget();
    let undo: (() => Promise<unknown>) | undefined;
    const hold: RunHold = (_what, u) => ((undo = u), () => {});
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const opening = openWebhookSession(config, target.clock, (o) => answered.then(() => target.run.send(o)), target.run, hold);
    // The KitReceiver starts first; the registration is held once it is sent.
    for (let i = 0; i < 100 && undo === undefined; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(target.asked).toEqual([]);
    const undoing = undo!();
    answer();
    await opening;
    expect(await undoing).toBeUndefined();
    expect(target.registration()).toBe(EARLIER);
  });
});

describe('asking where the target delivers, during the run', () => {
  it('asks at most every 3 s of the run clock: every run asks with the one body `{}`, which a target takes once a second', async () => {
    const target = await controlTarget();
    const opened = await openWebhookSession(config, target.clock, (o) => target.run.send(o), target.run);
    const { registered } = opened.session;
    expect(await Promise.all([registered!(), registered!()])).toEqual([opened.session.url, opened.session.url]);
    await target.clock.advance(2_999);
    await registered!();
    expect(target.asked.filter((a) => a === 'question')).toHaveLength(1);
    await target.clock.advance(1);
    await registered!();
    expect(target.asked.filter((a) => a === 'question')).toHaveLength(2);
    await opened.close();
  });
});
