// The Edges checks against the reference sandbox: each passes on the default sandbox and on the
// variants v1.2 added (another method answered 404; long ids refused; debit at settlement), each fails,
// naming its requirement, under the fault that breaks its rule, and none needs a seed to find its edge.
import { describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../../sandbox/faults.js';
import type { TargetConfig } from '../config.js';
import { edgeChecks } from './edges.js';
import { outcomes, runAgainst } from './wire-edges-test-support.js';

const ALL_PASSED = Object.fromEntries(edgeChecks.map((c) => [c.id, 'passed']));

describe('no false alarm against the sandbox', () => {
  it.each([
    ['the default variant', {}],
    ['another method answered 404', { otherMethod: 404 as const }],
    ['long ids refused', { longIds: 'refuse' as const }],
    ['debit at settlement, canonical verification, 200 on create', { debitAt: 'settlement' as const, verify: 'canonical' as const, createStatus: 200 as const }],
  ])('%s', async (_name, variant) => {
    const ended = await runAgainst(edgeChecks, { variant });
    expect(ended.filter((e) => e.outcome !== 'passed')).toEqual([]);
    expect(outcomes(ended)).toEqual(ALL_PASSED);
  }, 30_000);
});

/** Each fault, and what the failure must say: caught for the reason the fault gives, not by accident. */
const FAULTS_HERE: Array<[FaultName, RegExp]> = [
  ['amount-zero-string-accepted', /order_amount "(0|0\.00|-0\.00)" is zero and must be refused/],
  ['amount-three-decimals-truncated', /Order Status answers "\d+\.\d\d0" "(KWD|BHD|OMR)"/],
  ['amount-large-int32', /99999999\.99 INR .*answers "14100654\.07"/],
  ['dup-id-case-insensitive', /HTTP 409: the two ids were taken for one/],
  ['dup-id-truncated', /came back as 64 characters/],
  ['errors-astral-500', /customer\.name = characters outside the BMP .* answered HTTP 500/],
  ['errors-line-separator-500', /U\+2028 .* answered HTTP 500/],
];

describe('each fault is caught by the check of its requirement', () => {
  it.each(FAULTS_HERE.map(([f, why]) => [f, FAULTS[f].requirement, why] as const))('%s → %s', async (fault, requirement, why) => {
    const ended = await runAgainst(edgeChecks.filter((c) => c.requirement === requirement), { faults: [fault] });
    expect(ended.map((e) => `${e.requirement} ${e.outcome}`)).toEqual([`${requirement} failed`]);
    expect(ended[0]!.why).toMatch(why);
  }, 30_000);

  it('under long ids refused, the long id is refused before dup-id-truncated could cut it: conformant, so it passes', async () => {
    const ended = await runAgainst(edgeChecks.filter((c) => c.requirement === 'DUP-EXACT-IDS'), { variant: { longIds: 'refuse' }, faults: ['dup-id-truncated'] });
    expect(ended.map((e) => e.outcome)).toEqual(['passed']);
  }, 30_000);
});

const withoutOperations = (config: TargetConfig): TargetConfig => ({
  ...config, profile: { ...config.profile, operations: { orderStatus: null, orderCancel: null, balanceInquiry: null, transactionInitiation: null } },
});

describe('without the extension operations', () => {
  it('what needs Order Status to read back is not judged, and says so; the rest still judges', async () => {
    const ended = await runAgainst(edgeChecks, {}, withoutOperations);
    expect(outcomes(ended)).toEqual({ ...ALL_PASSED, 'edges-amount-kept-exactly': 'skipped', 'edges-amount-large': 'skipped' });
    expect(ended.find((e) => e.check === 'edges-amount-large')?.why).toMatch(/^partly judged: .*orderStatus/);
  }, 30_000);

  it('an amount stored altered cannot be seen without a read-back: not judged, never passed', async () => {
    const ended = await runAgainst(edgeChecks.filter((c) => c.requirement === 'AMOUNT-LARGE'), { faults: ['amount-large-int32'] }, withoutOperations);
    expect(ended.map((e) => e.outcome)).toEqual(['skipped']);
  }, 30_000);
});
