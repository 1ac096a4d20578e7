// The signature-scheme probe (AUTH-ACCEPT when every correctly signed request was refused 401): each
// wrong scheme is the one it names, as the kit's own diagnose reads it, and the probe fails on the
// first scheme a target accepts and is skipped when it accepts none.
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../signer/canonical.js';
import { diagnose } from '../../signer/diagnose.js';
import { hmacSha256Hex } from '../../signer/sign.js';
import { judge, madeUpConfig, type Reply } from './made-up-server-test-support.js';
import { credentialClues, signatureSchemeProbe, WRONG_SCHEMES } from './signature-probe.js';

const SECRET = madeUpConfig().merchant.secretKey;
const BODY = canonicalize({ svc_wallet_id: 'WAL-1', debit_account_type: 'svc_wallet', payout_order_id: 'PO-1/é' });
const T = 1_795_255_200;

describe('the wrong schemes', () => {
  it.each(WRONG_SCHEMES.map((s) => [s.id, s] as const))('%s is what diagnose reads it as', (id, scheme) => {
    const { timestamp, signature } = scheme.sign(SECRET, BODY, T);
    // A millisecond timestamp is signed as sent; what is wrong is its unit, read against the seconds.
    expect(timestamp).toBe(id === 'timestamp-milliseconds' ? `${T}000` : String(T));
    expect(diagnose({ body: BODY, timestamp: String(T), signature, secret: SECRET }).variants).toEqual([id]);
  });

  it('pretty-printed: ", " and ": " between tokens, nothing else changed', () => {
    const spaced = '{"debit_account_type": "svc_wallet", "payout_order_id": "PO-1/é", "svc_wallet_id": "WAL-1"}';
    expect(WRONG_SCHEMES.find((s) => s.id === 'pretty-printed')!.sign(SECRET, BODY, T).signature).toBe(
      hmacSha256Hex(SECRET, spaced + String(T)),
    );
  });

  it('are all different, and none is the right signature', () => {
    const signatures = WRONG_SCHEMES.map((s) => s.sign(SECRET, BODY, T).signature);
    expect(new Set(signatures).size).toBe(WRONG_SCHEMES.length);
    expect(signatures).not.toContain(hmacSha256Hex(SECRET, BODY + String(T)));
  });
});

describe('the probe', () => {
  /** `status(i)` answers the i-th wrong scheme; `baseline` the same request signed right, sent first. */
  const run = async (status: (index: number) => number, baseline = 401) => {
    const probe = signatureSchemeProbe();
    let n = 0;
    const judged = await judge(probe.check, () => (n++ === 0 ? baseline : status(n - 2)));
    return { ...judged, found: probe.acceptedVariant(), asked: n - 1 };
  };

  it.each(WRONG_SCHEMES.map((s, i) => [s.id, i] as const))('fails on %s, the first scheme accepted, and says which', async (id, index) => {
    const { outcome, failure, found, asked } = await run((i) => (i === index ? 404 : 401));
    expect([outcome, found, asked]).toEqual(['failed', id, index + 1]);
    expect(failure?.message).toMatch(new RegExp(`but accepts .* \\(${id}\\): it verifies another scheme$`));
  });

  it.each([401, 403, 500, 503])('is skipped, naming every scheme, when each answers %i', async (status) => {
    const { outcome, found, asked } = await run(() => status);
    expect(outcome).toBe(
      `skipped: none of 9 requests signed known wrong ways (${WRONG_SCHEMES.map((s) => s.id).join(', ')}) was accepted either`,
    );
    expect([found, asked]).toEqual([undefined, 9]);
  });

  it('counts any other answer as accepted: 400, 404, 200, 499', async () => {
    for (const status of [400, 404, 200, 499]) expect((await run(() => status)).outcome, String(status)).toBe('failed');
  });

  it('does not count an answer the right signature got too (a wrong base URL answers both 404)', async () => {
    for (const status of [404, 400, 200]) expect((await run(() => status, status)).outcome, String(status)).toMatch(/^skipped: /);
    expect((await run((i) => (i === 3 ? 200 : 404), 404)).found).toBe('uppercase-hex');
  });

  it('sends the request signed right first, then each scheme as signed, on a Payout Status of the merchant wallet', async () => {
    const sent: Array<{ timestamp: unknown; signature: unknown; payload: unknown }> = [];
    await judge(
      signatureSchemeProbe().check,
      (o) => (sent.push({ timestamp: o.timestamp, signature: o.signature, payload: o.payload }), 401),
    );
    const { merchant } = madeUpConfig();
    expect(sent[0]).toMatchObject({ timestamp: undefined, signature: undefined });
    for (const [i, s] of sent.slice(1).entries()) {
      const body = canonicalize(s.payload);
      const ts = String(s.timestamp);
      const t = Number(WRONG_SCHEMES[i]!.id === 'timestamp-milliseconds' ? ts.slice(0, -3) : ts);
      expect(s.signature, WRONG_SCHEMES[i]!.id).toBe(WRONG_SCHEMES[i]!.sign(merchant.secretKey, body, t).signature);
      expect(s.payload).toMatchObject({ svc_wallet_id: merchant.walletId, debit_account_type: 'svc_wallet' });
      expect(s.payload).toEqual(sent[0]!.payload);
    }
    expect(sent).toHaveLength(10);
  });
});

describe('what the probe reads as refused', () => {
  const run = async (status: Reply, baseline: Reply) => {
    const probe = signatureSchemeProbe();
    let n = 0;
    const judged = await judge(probe.check, () => (n++ === 0 ? baseline : status));
    return { ...judged, found: probe.acceptedVariant() };
  };

  it.each([401, 403, 500, 502])('an answer %i is a refusal even when the right signature got a 404', async (status) => {
    expect((await run(status, 404)).outcome).toMatch(/^skipped: /);
  });

  it('no answer to a wrong scheme is a refusal; no answer to the right one is no acceptance to compare with', async () => {
    expect((await run('no answer', 401)).outcome).toMatch(/^skipped: /);
    expect((await run(401, 'no answer')).outcome).toMatch(/^skipped: /);
    expect((await run(200, 'no answer')).found).toBe('timestamp-omitted');
  });

  it('an answer 400 or 200 where the right signature got a 404 is an acceptance', async () => {
    for (const status of [400, 200, 499]) expect((await run(status, 404)).found, String(status)).toBe('timestamp-omitted');
  });
});

describe('the clues the probe collects', () => {
  const cluesOf = async (message: unknown, status = 401, edit: Parameters<typeof judge>[2] = () => {}) => {
    const probe = signatureSchemeProbe();
    let n = 0;
    // The made-up server's statuses are not used: `send` answers, with the message given.
    await judge(probe.check, () => 401, edit, {
      redact: (text) => text.replaceAll('sk_live_SECRET', '[redacted]'),
      send: (options) => {
        const answer = n++ === 0 ? status : 401;
        const json = { status: false, code: answer, message };
        return Promise.resolve({
          label: options.label,
          request: { method: 'POST', url: 'http://127.0.0.1:9/x', headers: {}, body: '{}' },
          response: { status: answer, headers: {}, body: JSON.stringify(json), json },
          ms: 0,
        });
      },
    });
    return probe.clues();
  };

  it("quote the target's 401 message, trimmed, redacted, cut at 80 characters", async () => {
    expect(await cluesOf('  bad signature  ')).toEqual(['the target answered 401 "bad signature"']);
    expect(await cluesOf('key sk_live_SECRET refused')).toEqual(['the target answered 401 "key [redacted] refused"']);
    expect(await cluesOf('x'.repeat(80))).toEqual([`the target answered 401 "${'x'.repeat(80)}"`]);
    expect(await cluesOf('x'.repeat(81))).toEqual([`the target answered 401 "${'x'.repeat(80)}…"`]);
  });

  it('are none before the probe has run (a run stopped before it)', () => {
    expect(signatureSchemeProbe().clues()).toEqual([]);
  });

  it('quote nothing when the answer was not a 401 with a message', async () => {
    expect(await cluesOf('bad signature', 403)).toEqual([]);
    expect(await cluesOf('   ')).toEqual([]);
    expect(await cluesOf(42)).toEqual([]);
  });
});

describe('credentialClues', () => {
  const base = {
    environment: 'sandbox' as const,
    merchant: { apiKey: 'pk_test_a', secretKey: 'sk_test_a', walletId: 'W-A' },
  };
  type Config = Parameters<typeof credentialClues>[0] & Record<string, unknown>;
  const clues = (edit: (config: Config) => void = () => {}, said?: string) => {
    const config = structuredClone(base) as Config;
    edit(config);
    return credentialClues(config, said);
  };

  it('says nothing of keys that look right', () => {
    expect(clues()).toEqual([]);
    expect(clues((c) => (c.otherMerchant = { apiKey: 'pk_test_b', secretKey: 'sk_test_b', walletId: 'W-B' }))).toEqual([]);
    expect(clues((c) => Object.assign(c.merchant, { apiKey: 'key-a', secretKey: 'secret-a' }))).toEqual([]);
  });

  it('names whitespace copied with either key', () => {
    expect(clues((c) => (c.merchant.apiKey = 'pk_test_a\n'))).toEqual([
      'merchant.apiKey begins or ends with whitespace (a newline copied with it?)',
    ]);
    expect(clues((c) => (c.merchant.secretKey = ' sk_test_a'))).toEqual([
      'merchant.secretKey begins or ends with whitespace (a newline copied with it?)',
    ]);
  });

  it("names a key that is the other merchant's or the other environment's", () => {
    expect(clues((c) => (c.otherMerchant = { apiKey: 'pk_test_b', secretKey: 'sk_test_a', walletId: 'W-B' }))).toEqual([
      'merchant.secretKey is the same as otherMerchant.secretKey',
    ]);
    expect(clues((c) => (c.otherEnvironment = { apiKey: 'pk_test_a', secretKey: 'sk_live_z', walletId: 'W-Z' }))).toEqual([
      'merchant.apiKey is the same as otherEnvironment.apiKey',
    ]);
  });

  it('names keys of two environments, or of another environment than the config says', () => {
    expect(clues((c) => (c.merchant.secretKey = 'sk_live_a'))).toEqual([
      'merchant.apiKey is a sandbox key but merchant.secretKey a production secret',
    ]);
    expect(clues((c) => (c.merchant.apiKey = 'pk_live_a'))).toEqual([
      'merchant.apiKey is a production key but merchant.secretKey a sandbox secret',
      'merchant.apiKey is a production key but environment is sandbox',
    ]);
    expect(clues((c) => Object.assign(c, { environment: 'production' }))).toEqual([
      'merchant.apiKey is a sandbox key but environment is production',
    ]);
    expect(clues((c) => Object.assign(c.merchant, { apiKey: ' pk_live_a' }))).toContain(
      'merchant.apiKey is a production key but environment is sandbox',
    );
    expect(clues((c) => Object.assign(c.merchant, { secretKey: ' sk_live_a' }))).toContain(
      'merchant.apiKey is a sandbox key but merchant.secretKey a production secret',
    );
    expect(clues((c) => Object.assign(c.merchant, { apiKey: 'x_pk_live_a', secretKey: 'x_sk_test_a' }))).toEqual([]);
    // One key without an environment's prefix: nothing to compare it with.
    expect(clues((c) => Object.assign(c.merchant, { apiKey: 'key-a', secretKey: 'sk_live_a' }))).toEqual([]);
    expect(clues((c) => Object.assign(c.merchant, { apiKey: 'pk_test_a', secretKey: 'secret-a' }))).toEqual([]);
  });

  it('ends with what the target said, when it said something', () => {
    expect(clues((c) => (c.merchant.secretKey = 'sk_live_a'), 'the target answered 401 "no"')).toEqual([
      'merchant.apiKey is a sandbox key but merchant.secretKey a production secret',
      'the target answered 401 "no"',
    ]);
  });
});
