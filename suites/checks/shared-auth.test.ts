// The authentication helpers' conditions, each broken alone: which answers count as "let through"
// (expectAuthenticated) and "refused" (expectRefused), and the wrong credentials the checks send.
import { describe, expect, it } from 'vitest';
import { CheckFailure } from '../check.js';
import type { TargetConfig } from '../config.js';
import { authenticationChecks } from './authentication.js';
import { exchangeOf, madeUpConfig, madeUpContext, verdict, type Reply } from './made-up-server-test-support.js';
import { PAYOUT_STATUS_PATH } from '../requests.js';
import { alterLastCharacter, expectAuthenticated, expectRefused, unknownKeyCredentials, wrongSecretCredentials } from './shared-auth.js';

const config = madeUpConfig();
const probe = (reply: Reply) => exchangeOf(config, { label: 'the probe', path: PAYOUT_STATUS_PATH, payload: {} }, reply);
const headerCase = authenticationChecks.find((c) => c.id === 'auth-header-case')!;

describe('expectAuthenticated: an answer other than 401, 403, a 5xx or none', () => {
  it.each([200, 201, 400, 404, 409, 422, 499])('HTTP %i passed authentication', (status) => {
    expect(() => expectAuthenticated(probe(status), 'the probe')).not.toThrow();
  });

  it.each([401, 403, 500, 502, 503, 599])('HTTP %i did not', (status) => {
    const check = () => expectAuthenticated(probe(status), 'the probe');
    expect(check).toThrow(CheckFailure);
    expect(check).toThrow(`the probe: expected the request to pass authentication, got HTTP ${status}`);
  });

  it('no answer did not', () => {
    expect(() => expectAuthenticated(probe('no answer'), 'the probe')).toThrow(/got no answer$/);
  });

  // A server that fails (500) on lower-case header names never showed it reads them.
  it.each([
    [404, 'passed'],
    [500, 'failed'],
    [401, 'failed'],
    [403, 'failed'],
    ['no answer', 'failed'],
  ] as const)('AUTH-HEADER-CASE against a server answering %s: %s', async (reply, outcome) => {
    expect(await verdict(headerCase, () => reply)).toBe(outcome);
  });
});

describe('expectRefused: 401 and nothing else (P-AUTH-2)', () => {
  it('passes 401', () => {
    expect(() => expectRefused(probe(401), 'the probe')).not.toThrow();
  });

  it.each([400, 403, 404, 500])('fails HTTP %i', (status) => {
    expect(() => expectRefused(probe(status), 'the probe')).toThrow(CheckFailure);
  });

  it.each(['auth-missing-key', 'auth-wrong-secret', 'auth-signature-altered'])(
    '%s fails a server that lets everything through',
    async (id) => {
      const check = authenticationChecks.find((c) => c.id === id)!;
      expect(await verdict(check, () => 404)).toBe('failed');
      expect(await verdict(check, () => 401)).toBe('passed');
    },
  );
});

describe('wrongSecretCredentials: the merchant key with a secret that is not its own', () => {
  const secretOf = (edit: (config: TargetConfig) => void) => {
    const config = madeUpConfig();
    edit(config);
    return { secret: wrongSecretCredentials(madeUpContext(config, () => 404)).secretKey, config };
  };

  it("is the other merchant's secret when one is configured", () => {
    const { secret, config } = secretOf(() => {});
    expect(secret).toBe(config.otherMerchant!.secretKey);
  });

  it("is a made-up one when the other merchant's secret is the merchant's own (a config copied by mistake)", () => {
    const { secret, config } = secretOf((c) => void (c.otherMerchant!.secretKey = c.merchant.secretKey));
    expect(secret).not.toBe(config.merchant.secretKey);
    expect(secret).toBe('sk_test_svcconformance_not_the_secret');
  });

  it('is a made-up one without another merchant, in the shape of the environment: sk_live_ for a live secret', () => {
    expect(secretOf((c) => delete c.otherMerchant).secret).toBe('sk_test_svcconformance_not_the_secret');
    expect(
      secretOf((c) => {
        delete c.otherMerchant;
        c.merchant.secretKey = 'sk_live_abc';
      }).secret,
    ).toBe('sk_live_svcconformance_not_the_secret');
  });
});

describe("unknownKeyCredentials: a key no merchant has, shaped as the environment's keys are", () => {
  // The shape of a real key (prefix, lower case), so a server that checks the shape first still has to look it up.
  it('is a pk_test_ key in lower case for a test key, pk_live_ for a live one, with the merchant secret', () => {
    const config = madeUpConfig();
    const test = unknownKeyCredentials(madeUpContext(config, () => 404));
    expect(test.apiKey).toMatch(/^pk_test_svcconformance_unknown_[a-z0-9-]+$/);
    expect(test.secretKey).toBe(config.merchant.secretKey);
    config.merchant.apiKey = 'pk_live_abc';
    expect(unknownKeyCredentials(madeUpContext(config, () => 404)).apiKey).toMatch(/^pk_live_svcconformance_unknown_[a-z0-9-]+$/);
  });
});

describe('alterLastCharacter: one hex character changed, the last', () => {
  it.each([
    ['ab12', 'ab10'],
    ['ab10', 'ab11'],
    ['ab1f', 'ab10'],
  ])('%s → %s', (signature, altered) => {
    expect(alterLastCharacter(signature)).toBe(altered);
  });
});
