// The run's webhook session gives the registration back when it closes, asking again when a control
// request got no answer at all: a connection the target closed as it went idle (a keep-alive race on
// a loaded machine) says nothing about where the target delivers.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../core/clock.js';
import type { TargetConfig } from './config.js';
import type { Exchange, SendOptions, TargetClient } from './http.js';
import { openWebhookSession } from './webhook-session.js';

const config = {
  baseUrl: 'http://127.0.0.1:9',
  environment: 'sandbox',
  merchant: { apiKey: 'pk_test_session', secretKey: 'sk_test_session', walletId: 'WAL-1' },
  webhooks: { listen: '127.0.0.1:0' },
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
  } as unknown as TargetClient;
  // The run's first request (registering the kit's receiver) goes through the run's own sender.
  const send = (options: SendOptions) => {
    const payload = options.payload as { url: string };
    registered = payload.url;
    return Promise.resolve(answered({ data: { url: registered, previous_url: 'http://127.0.0.1:7/before' } }));
  };
  return { client, send, asked, registration: () => registered };
}

describe('closing the webhook session', () => {
  it('asks again when a registration request got no answer at all, and puts the earlier registration back', async () => {
    const target = droppingTarget();
    const opened = await openWebhookSession(config, systemClock, target.send, target.client);
    expect(await opened.close()).toBeUndefined();
    expect(target.asked).toEqual(['question', 'question', 'put', 'put']);
    expect(target.registration()).toBe('http://127.0.0.1:7/before');
  });
});
