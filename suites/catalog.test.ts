import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateSchema } from '../schemas/index.js';
import { FAULTS, FAULT_NAMES } from '../sandbox/faults.js';
import { catalog } from './catalog.js';
import type { Check } from './check.js';
import { authEffectChecks } from './checks/auth-effects.js';
import { authenticationChecks } from './checks/authentication.js';
import { moneyChecks } from './checks/money.js';
import { raceChecks } from './checks/races.js';
import { tenantChecks } from './checks/tenants.js';
import { duplicateChecks } from './checks/duplicates.js';
import { environmentChecks } from './checks/environments.js';
import { errorChecks } from './checks/errors.js';
import { modelChecks } from './checks/model.js';
import { operationChecks } from './checks/operations.js';
import { createOrderChecks } from './checks/orders.js';
import { payoutStatusChecks } from './checks/payouts.js';
import { signatureChecks } from './checks/signature.js';
import { webhookChecks } from './checks/webhooks.js';
import { edgeChecks } from './checks/edges.js';
import { wireChecks } from './checks/wire.js';

const checks: Check[] = [
  ...authenticationChecks,
  ...signatureChecks,
  ...environmentChecks,
  ...errorChecks,
  ...createOrderChecks,
  ...duplicateChecks,
  ...payoutStatusChecks,
  ...operationChecks,
  ...webhookChecks,
  ...authEffectChecks,
  ...moneyChecks,
  ...raceChecks,
  ...tenantChecks,
  ...modelChecks,
  ...wireChecks,
  ...edgeChecks,
];
const requirements = catalog();

describe('the requirement catalog and the checks', () => {
  it('has 60 or more requirements, ids unique, each citing profile rules', () => {
    expect(requirements.length).toBeGreaterThanOrEqual(60);
    expect(new Set(requirements.map((r) => r.id)).size).toBe(requirements.length);
    for (const r of requirements) expect(r.profile.length, r.id).toBeGreaterThan(0);
  });

  it('checks every requirement, and every check names a requirement of the catalog', () => {
    const ids = new Set(requirements.map((r) => r.id));
    expect(checks.filter((c) => !ids.has(c.requirement)).map((c) => c.id)).toEqual([]);
    const checked = new Set(checks.map((c) => c.requirement));
    expect(requirements.filter((r) => !checked.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
  });

  it('marks the profile-operation and webhook requirements as extensions, and only those', () => {
    const extensionSections = ['Profile operations', 'Webhooks', 'Records over time', 'Wallet', 'Isolation'];
    const extensionElsewhere = ['DUP-FIRST-UNCHANGED', 'DUP-PERMANENT', 'AMOUNT-KEPT-EXACTLY'];
    for (const r of requirements)
      expect(r.extension, r.id).toBe(extensionSections.includes(r.section) || extensionElsewhere.includes(r.id));
  });

  it('maps every sandbox fault to a requirement of the catalog', () => {
    const ids = new Set(requirements.map((r) => r.id));
    expect(FAULT_NAMES.filter((f) => !ids.has(FAULTS[f].requirement))).toEqual([]);
  });

  it('keeps the report schema in step with the report it describes', () => {
    const example = {
      target: { baseUrl: 'http://127.0.0.1:1', environment: 'sandbox' },
      seed: 1,
      verdict: 'conformant',
      coverage: { judged: 1, total: 1, notJudged: [] },
      summary: { passed: 1, failed: 0, warned: 0, skipped: 0 },
      requirements: [{ id: 'AUTH-ACCEPT', level: 'MUST', status: 'passed', profile: ['P-SIGN-2'], title: 't', evidence: [] }],
    };
    expect(validateSchema('report', example).valid).toBe(true);
    // An inconclusive verdict says why; any other verdict has no reasons.
    expect(validateSchema('report', { ...example, verdict: 'inconclusive' }).valid).toBe(false);
    expect(validateSchema('report', { ...example, verdict: 'inconclusive', reasons: ['the target could not be reached'] }).valid).toBe(
      true,
    );
    expect(validateSchema('report', { ...example, reasons: ['why'] }).valid).toBe(false);
    expect(validateSchema('report', { ...example, verdict: 'not conformant' }).valid).toBe(false);
    const decided = (profileDecides: unknown) => ({ ...example, requirements: [{ ...example.requirements[0], profileDecides }] });
    expect(validateSchema('report', decided({ rule: 'P-OPS-1', decision: 'cancelling a CANCELLED order answers 422' })).valid).toBe(true);
    expect(validateSchema('report', decided({ rule: 'P-OPS-1', decision: '' })).valid).toBe(false);
    expect(validateSchema('report', decided({ rule: 'OPS-1', decision: '422' })).valid).toBe(false);
  });
});

/** The rules docs/profile.md states, by anchor: where every form of a failure sends its reader. */
const profileAnchors = new Set(
  [...readFileSync(new URL('../docs/profile.md', import.meta.url), 'utf8').matchAll(/<a id="(P-[A-Z0-9-]+)"><\/a>/g)].map((m) => m[1]),
);

describe('profileDecides: the points interface.md leaves open, as the profile decides them', () => {
  const decided = requirements.filter((r) => r.profileDecides !== undefined).map((r) => [r.id, r] as const);

  it.each(decided)('%s names a rule it rests on, stated in docs/profile.md, and the decision in a few words', (_id, r) => {
    const { rule, decision, ...other } = r.profileDecides!;
    expect(other).toEqual({});
    expect(r.profile).toContain(rule);
    expect(profileAnchors.has(rule), `docs/profile.md has no anchor ${rule}`).toBe(true);
    expect(decision.trim()).not.toBe('');
    expect(decision.length).toBeLessThanOrEqual(200);
    expect(decision).not.toMatch(/\.$/);
  });

  // The points the implementer of the trials met, each a failure that did not say whose rule it was.
  it.each([
    ['OPS-CANCEL-AGAIN', 'P-OPS-1', /422/],
    ['HTTP-OTHER-METHODS', 'P-HTTP-1', /405/],
    ['HTTP-REPEATED-KEYS', 'P-HTTP-4', /repeats a key/],
    ['ERR-BAD-AMOUNT', 'P-AMOUNT-1', /" 1\.00"/],
    ['OPS-ORDER-STATUS', 'P-OPS-1', /order_amount as decimal text/],
    ['OPS-BALANCE', 'P-OPS-4', /balance as decimal text/],
  ])('%s: %s decides it', (id, rule, decision) => {
    const r = requirements.find((q) => q.id === id);
    expect(r?.profileDecides?.rule).toBe(rule);
    expect(r?.profileDecides?.decision).toMatch(decision);
  });
});
