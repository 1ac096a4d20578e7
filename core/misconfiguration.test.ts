// Configuration is not the target's failure (P-CLI, Verdicts v1.3): which runs are the configuration's,
// and the one cause said up front when the target showed a fault of its own instead.
import { describe, expect, it } from 'vitest';
import { misconfiguration, noSignedRequestAccepted, plainlySignedTally, runHints } from './misconfiguration.js';
import type { CheckMeta, CheckResult, PlainlySigned } from './report.js';

function result(requirement: string, meta: Partial<CheckMeta> = {}): CheckResult {
  return {
    meta: { check: requirement.toLowerCase(), requirement, title: requirement, evidence: [], findings: [], ...meta },
    state: 'failed',
    durationMs: 0,
  };
}
const tally = (t: Partial<PlainlySigned>): Partial<CheckMeta> => ({
  plainlySigned: { answered: 0, refused401: 0, accepted: 0, notFound: 0, notJson: 0, ...t },
});
const refused = (n: number) => tally({ answered: n, refused401: n });

describe('misconfiguration: none of the correctly signed requests taken, and no fault of the target seen', () => {
  it('adds the tallies of every check', () => {
    expect(
      plainlySignedTally([result('A', tally({ answered: 2, accepted: 1 })), result('B', tally({ answered: 3, notFound: 3, notJson: 2 }))]),
    ).toEqual({
      answered: 5,
      refused401: 0,
      accepted: 1,
      notFound: 3,
      notJson: 2,
    });
  });

  it.each<[string, Partial<PlainlySigned>, boolean]>([
    ['three refused', { answered: 3, refused401: 3 }, true],
    ['two answered: too few to say', { answered: 2, refused401: 2 }, false],
    ['one taken among many', { answered: 9, refused401: 8, accepted: 1 }, false],
    ['answers that are neither 401 nor taken (405, 404)', { answered: 4, notFound: 2 }, true],
  ])('%s', (_name, t, expected) => {
    expect(noSignedRequestAccepted([result('A', tally(t))])).toBe(expected);
  });

  it('blames the keys when most answers are refusals, with what the configuration suggests', () => {
    const [reason] = misconfiguration(
      [
        result('A', refused(4)),
        result('B', { credentialClues: ['merchant.apiKey is a sandbox key but merchant.secretKey a production secret'] }),
      ],
      'http://t',
    );
    expect(reason).toMatch(
      /^no correctly signed request was taken by the target \(4 answered: 4 refused 401\), so it could not be judged: the configured keys are likely wrong/,
    );
    expect(reason).toContain('(merchant.apiKey is a sandbox key but merchant.secretKey a production secret)');
  });

  it('blames the base URL or the paths when most answers are 404 or no JSON', () => {
    const [reason] = misconfiguration([result('A', tally({ answered: 5, notFound: 5, notJson: 5 }))], 'http://t/v9');
    expect(reason).toMatch(/the base URL or the operation paths are likely wrong, not the target: check baseUrl \(http:\/\/t\/v9;/);
  });

  it.each<[string, Partial<CheckMeta>]>([
    ['a wrong scheme the probe found', { acceptedVariant: 'base64' }],
    ['a request signed wrong on purpose answered 2xx', { wronglySignedAccepted: 1 }],
    ['a 5xx', { serverErrors: 1 }],
  ])('is the target’s own failure after %s', (_name, meta) => {
    expect(misconfiguration([result('A', refused(5)), result('B', meta)], 'http://t')).toEqual([]);
  });

  it('is the target’s own failure when a request signed wrong got its unknown-record 404 and no correctly signed one got a 404', () => {
    expect(misconfiguration([result('A', refused(5)), result('B', { wronglySignedNotFound: 1 })], 'http://t')).toEqual([]);
  });

  it('is still the configuration when a wrong base URL answers 404 to everything, signed right or wrong', () => {
    const results = [result('A', tally({ answered: 5, notFound: 5 })), result('B', { wronglySignedNotFound: 3 })];
    expect(misconfiguration(results, 'http://t/v9')).toHaveLength(1);
  });

  it('is nothing when a correctly signed request was taken', () => {
    expect(misconfiguration([result('A', tally({ answered: 5, refused401: 4, accepted: 1 }))], 'http://t')).toEqual([]);
  });
});

describe('runHints: one cause said once', () => {
  it('names the wrong scheme a target accepted when no correctly signed request was taken', () => {
    const results = [
      result('A', refused(5)),
      result('D', { acceptedVariant: 'timestamp-omitted', failure: { message: 'the target accepts signatures made without X-TIMESTAMP' } }),
    ];
    expect(runHints(results)).toEqual([
      'no correctly signed request was taken, but one signed a known wrong way was: the target accepts signatures made without X-TIMESTAMP',
    ]);
  });

  it('names the requirements whose wrongly signed requests were taken', () => {
    expect(runHints([result('A', refused(5)), result('D', { wronglySignedAccepted: 2 })])).toEqual([
      "no correctly signed request was taken, but requests signed wrong or not at all were (D): the target authenticates another way than the profile's, whatever the keys",
    ]);
  });

  it('says a 5xx is the target’s own', () => {
    expect(runHints([result('A', refused(5)), result('B', { serverErrors: 2 })])).toEqual([
      'no correctly signed request was taken, but the target answered 2 requests with a 5xx, which no configuration explains (P-ERR-3)',
    ]);
  });

  it('says nothing when the credentials were taken', () => {
    expect(runHints([result('A', tally({ answered: 5, accepted: 5 })), result('D', { acceptedVariant: 'x' })])).toEqual([]);
  });
});
