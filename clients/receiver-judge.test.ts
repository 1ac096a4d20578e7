// The judge's deliveries, seen from the receiver's side by a verifier written here from P-HOOK-1/7:
// every genuine one is a valid event, canonical and correctly signed; every forgery is refused by
// it; and a receiver that answers everything 200 fails every refusal requirement.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../core/clock-test-support.js';
import { validateSchema } from '../schemas/index.js';
import { canonicalize } from '../signer/canonical.js';
import { judgeReceiver, type ReceiverJudgement } from './receiver-judge.js';

const SECRET = 'sk_test_receiver_judge_secret';
const OTHER = 'sk_test_other_merchant_secret';
const LIVE = 'sk_live_other_environment_secret';
const seen: Array<{ headers: IncomingHttpHeaders; raw: Buffer }> = [];
let url = '';
let judgement: ReceiverJudgement;

/** P-HOOK-7 as a receiver applies it: the status it answers. */
function independentVerdict(headers: IncomingHttpHeaders, raw: Buffer): number {
  const timestamp = headers['x-timestamp'];
  const signature = headers['x-signature'];
  if (typeof timestamp !== 'string' || !/^\d+$/.test(timestamp) || Math.abs(Number(timestamp) - Date.now() / 1000) > 300) return 401;
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return 401;
  const expected = createHmac('sha256', SECRET)
    .update(Buffer.concat([raw, Buffer.from(timestamp)]))
    .digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 401;
  try {
    const event = JSON.parse(raw.toString('utf8'));
    return event !== null && typeof event === 'object' && !Array.isArray(event) ? 200 : 400;
  } catch {
    return 400;
  }
}

beforeAll(async () => {
  // Answers 200 to everything, and keeps what came: the judge must fail it for every refusal.
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      // It also echoes the signature it got: the evidence must not carry it back.
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ received: true, signature: req.headers['x-signature'] ?? null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  judgement = await judgeReceiver({
    url,
    merchant: { secretKey: SECRET },
    otherMerchant: { secretKey: OTHER },
    otherEnvironment: { secretKey: LIVE },
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
});

describe('judgeReceiver', () => {
  it('delivers genuine events that are valid, canonical and signed, some with non-ASCII and HTML characters, and a redelivery', () => {
    const genuine = seen.filter((s) => independentVerdict(s.headers, s.raw) === 200);
    expect(genuine.length).toBe(5);
    for (const s of genuine) {
      const event = JSON.parse(s.raw.toString('utf8'));
      expect(validateSchema('webhook-event', event)).toEqual({ valid: true, errors: [] });
      expect(s.raw.toString('utf8')).toBe(canonicalize(event));
      expect(s.headers['x-event-id']).toBe(event.event_id);
    }
    const texts = genuine.map((s) => s.raw.toString('utf8'));
    expect(texts.some((t) => t.includes('Überweisung abgeschlossen'))).toBe(true);
    expect(texts.some((t) => t.includes('注文-') && t.includes('<b>gift</b> & card'))).toBe(true);
    // The redelivery: the first event's body again, with a later timestamp and its own signature.
    const [first, ...rest] = genuine;
    const again = rest.find((s) => s.raw.equals(first!.raw))!;
    expect(Number(again.headers['x-timestamp'])).toBeGreaterThan(Number(first!.headers['x-timestamp']));
    expect(again.headers['x-signature']).not.toBe(first!.headers['x-signature']);
  });

  it('delivers forgeries that a receiver following P-HOOK-7 refuses: 401 for signatures and timestamps, 400 for a body not JSON', () => {
    const refused = seen.map((s) => independentVerdict(s.headers, s.raw)).filter((status) => status !== 200);
    expect(refused.filter((s) => s === 401)).toHaveLength(9);
    expect(refused.filter((s) => s === 400)).toHaveLength(1);
  });

  it('fails a receiver that accepts everything on every refusal requirement, and on nothing else', () => {
    const failed = judgement.results
      .filter((r) => r.state === 'failed')
      .map((r) => r.meta.requirement)
      .sort();
    expect(failed).toEqual([
      'RECEIVER-REFUSE-NON-JSON',
      'RECEIVER-REFUSE-OTHER-SECRET',
      'RECEIVER-REFUSE-SIGNATURE',
      'RECEIVER-REFUSE-TIMESTAMP',
    ]);
    const evidence = JSON.stringify(judgement.results.map((r) => r.meta.evidence));
    for (const secret of [SECRET, OTHER, LIVE]) expect(evidence).not.toContain(secret);
    expect(evidence).toContain('"X-SIGNATURE":"[redacted]"');
    for (const s of seen) if (typeof s.headers['x-signature'] === 'string') expect(evidence).not.toContain(s.headers['x-signature']);
    expect(evidence).toContain('[redacted:signature]');
  });

  it("leaves the other-secret forgeries out, naming the config keys, when no other secret is known or it is the merchant's own", async () => {
    const alone = await judgeReceiver({ url, merchant: { secretKey: SECRET } });
    const other = alone.results.find((r) => r.meta.requirement === 'RECEIVER-REFUSE-OTHER-SECRET')!;
    expect(other.state).toBe('skipped');
    expect(other.meta.skipped).toMatch(/otherMerchant\.secretKey.*otherEnvironment\.secretKey/);
    // The same secret twice would make the "forgery" genuine, and fail a correct receiver.
    const same = await judgeReceiver({
      url,
      merchant: { secretKey: SECRET },
      otherMerchant: { secretKey: SECRET },
      otherEnvironment: { secretKey: SECRET },
    });
    const skipped = same.results.find((r) => r.meta.requirement === 'RECEIVER-REFUSE-OTHER-SECRET')!;
    expect(skipped.state).toBe('skipped');
    expect(skipped.meta.skipped).toBe(
      "needs another merchant's secret (otherMerchant.secretKey is the merchant's own) and the other environment's secret (otherEnvironment.secretKey is the merchant's own)",
    );
  });

  it('a receiver that refuses every forgery, but with 403, fails only the SHOULD on refusal statuses', async () => {
    const forbidding = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = independentVerdict(req.headers, Buffer.concat(chunks));
        res.writeHead(status === 200 ? 200 : 403).end();
      });
    });
    await new Promise<void>((resolve) => forbidding.listen(0, '127.0.0.1', resolve));
    try {
      const { results } = await judgeReceiver({
        url: `http://127.0.0.1:${(forbidding.address() as AddressInfo).port}/hooks`,
        merchant: { secretKey: SECRET },
        otherMerchant: { secretKey: OTHER },
        otherEnvironment: { secretKey: LIVE },
      });
      expect(results.filter((r) => r.state === 'failed').map((r) => r.meta.requirement)).toEqual(['RECEIVER-REFUSAL-STATUS']);
      const refusal = results.find((r) => r.meta.requirement === 'RECEIVER-REFUSAL-STATUS')!;
      expect(refusal.meta.failure?.message).toMatch(
        /^10 refusals were not answered as P-HOOK-7 advises: forged: no X-SIGNATURE: HTTP 403, not 401;.*a body that is not JSON, correctly signed: HTTP 403, not 400$/,
      );
    } finally {
      await new Promise((resolve) => forbidding.close(resolve));
    }
  });

  it('a receiver that closes the connection fails RECEIVER-ACK, not the timing requirements', async () => {
    const closer = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => closer.listen(0, '127.0.0.1', resolve));
    try {
      const { results } = await judgeReceiver({
        url: `http://127.0.0.1:${(closer.address() as AddressInfo).port}/hooks`,
        merchant: { secretKey: SECRET },
      });
      const state = (id: string) => results.find((r) => r.meta.requirement === id)!;
      expect(state('RECEIVER-ACK').state).toBe('failed');
      expect(state('RECEIVER-ACK').meta.failure?.message).toMatch(
        /^4 of 4 genuine deliveries were not answered 200: genuine .*no answer \(127\.0\.0\.1:\d+ closed the connection without an answer\)/,
      );
      expect(state('RECEIVER-ACK-IN-TIME').state).toBe('passed');
      expect(state('RECEIVER-ACK-FAST').state).toBe('passed');
    } finally {
      await new Promise((resolve) => closer.close(resolve));
    }
  });

  describe("the acknowledgement windows run on the judge's clock", () => {
    /** A receiver that holds each genuine delivery until the test lets go, and refuses forgeries at once. */
    async function holdingReceiver() {
      const held: Array<() => void> = [];
      let holding = true;
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const status = independentVerdict(req.headers, Buffer.concat(chunks));
          const answer = () => void res.writeHead(status).end();
          if (status === 200 && holding) held.push(answer);
          else answer();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        letGo() {
          holding = false;
          for (const answer of held.splice(0)) answer();
        },
        close: () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      };
    }

    /** Resolves once only the four genuine deliveries wait for their answer (every forgery answered). */
    async function onlyGenuineWait(clock: ManualClock): Promise<void> {
      const giveUpAt = Date.now() + 5_000;
      while (clock.sleeping !== 4) {
        if (Date.now() > giveUpAt) throw new Error(`${clock.sleeping} deliveries wait, not the 4 genuine ones`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }

    const states = (results: ReceiverJudgement['results']) =>
      Object.fromEntries(
        results
          .filter((r) => r.meta.requirement.startsWith('RECEIVER-ACK') || r.meta.requirement === 'RECEIVER-REDELIVERY')
          .map((r) => [r.meta.requirement, r.state]),
      );

    it('an answer 3 s late (on that clock) breaks only the 2 s SHOULD, and its evidence says 3000 ms', async () => {
      const receiver = await holdingReceiver();
      const clock = manualClock();
      try {
        const judging = judgeReceiver({ url: receiver.url, merchant: { secretKey: SECRET }, clock });
        await onlyGenuineWait(clock);
        await clock.advance(3_000);
        receiver.letGo();
        const { results } = await judging;
        expect(states(results)).toEqual({
          'RECEIVER-ACK': 'passed',
          'RECEIVER-ACK-IN-TIME': 'passed',
          'RECEIVER-ACK-FAST': 'failed',
          'RECEIVER-REDELIVERY': 'passed',
        });
        expect(results.find((r) => r.meta.requirement === 'RECEIVER-ACK-FAST')!.meta.failure?.actual).toBe(
          '3000 ms, 3000 ms, 3000 ms, 3000 ms',
        );
      } finally {
        await receiver.close();
      }
    });

    it('no answer when 10 s of that clock have passed breaks RECEIVER-ACK-IN-TIME, with no real wait', async () => {
      const receiver = await holdingReceiver();
      const clock = manualClock();
      try {
        const judging = judgeReceiver({ url: receiver.url, merchant: { secretKey: SECRET }, clock });
        await onlyGenuineWait(clock);
        await clock.advance(9_999);
        expect(clock.sleeping).toBe(4);
        await clock.advance(1);
        const { results } = await judging;
        expect(states(results)).toEqual({
          'RECEIVER-ACK': 'skipped',
          'RECEIVER-ACK-IN-TIME': 'failed',
          'RECEIVER-ACK-FAST': 'failed',
          'RECEIVER-REDELIVERY': 'skipped',
        });
        expect(results.find((r) => r.meta.requirement === 'RECEIVER-ACK-IN-TIME')!.meta.failure?.message).toMatch(
          /^4 of 4 genuine deliveries got no answer within 10 s: .*no answer from 127\.0\.0\.1:\d+ within 10 s/,
        );
      } finally {
        await receiver.close();
      }
    });
  });
});
