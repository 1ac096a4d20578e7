// The signature-scheme probe (AUTH-ACCEPT when every correctly signed request was refused 401): each
// wrong scheme is the one it names, as the kit's own diagnose reads it, and the probe fails on the
// first scheme a target accepts and is skipped when it accepts none.
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../signer/canonical.js';
import { diagnose } from '../../signer/diagnose.js';
import { hmacSha256Hex } from '../../signer/sign.js';
import { judge, madeUpConfig } from './made-up-server-test-support.js';
import { signatureSchemeProbe, WRONG_SCHEMES } from './signature-probe.js';

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
