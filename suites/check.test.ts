// The public check API refuses a malformed check or requirement when it is made, with a message
// that starts with the API's name and says what to give.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Exchange } from '../core/exchange.js';
import type { BalanceRecord } from '../schemas/types.js';
import { defineCheck, defineRequirement, expectSchema, type Check } from './check.js';

const run = async () => {};

describe('defineCheck', () => {
  it('accepts a whole check, lane and alone included, and freezes it', () => {
    const check = defineCheck({ id: 'acme-one', requirement: 'ACME-ONE', title: 'one', lane: 'acme-wallet', alone: false, run });
    expect(check).toMatchObject({ id: 'acme-one', lane: 'acme-wallet', alone: false });
    expect(Object.isFrozen(check)).toBe(true);
  });

  it.each<[string, unknown, RegExp]>([
    ['no object', null, /^defineCheck: give an object/],
    ['an id with spaces', { id: 'acme one', requirement: 'R', title: 't', run }, /^defineCheck: id "acme one" must be/],
    ['no requirement', { id: 'acme', title: 't', run }, /requirement must name the requirement/],
    ['no title', { id: 'acme', requirement: 'R', run }, /title must say what it checks/],
    ['no run', { id: 'acme', requirement: 'R', title: 't' }, /run must be an async function/],
    ['an empty lane', { id: 'acme', requirement: 'R', title: 't', lane: '', run }, /lane must be a non-empty name/],
    ['a lane that is not text', { id: 'acme', requirement: 'R', title: 't', lane: 1, run }, /lane must be a non-empty name/],
    ['alone that is not a boolean', { id: 'acme', requirement: 'R', title: 't', alone: 'yes', run }, /alone must be true or false/],
  ])('refuses %s', (_what, shape, message) => {
    expect(() => defineCheck(shape as Check)).toThrow(message);
  });
});

describe('defineRequirement', () => {
  it('defaults a team requirement to an extension with no rules', () => {
    expect(defineRequirement({ id: 'ACME-ONE', title: 'one', level: 'SHOULD', section: 'Acme' })).toMatchObject({
      extension: true,
      profile: [],
    });
  });

  it.each<[string, unknown, RegExp]>([
    [
      'a lower-case id',
      { id: 'acme-one', title: 't', level: 'MUST', section: 'Acme' },
      /^defineRequirement: id "acme-one" must be upper-case/,
    ],
    ['an unknown level', { id: 'ACME-ONE', title: 't', level: 'MUSTN', section: 'Acme' }, /level must be "MUST", "SHOULD" or "MAY"/],
    ['no section', { id: 'ACME-ONE', title: 't', level: 'MAY' }, /section must name where it belongs/],
  ])('refuses %s', (_what, shape, message) => {
    expect(() => defineRequirement(shape as Parameters<typeof defineRequirement>[0])).toThrow(message);
  });
});

describe('expectSchema', () => {
  const exchange = (json: unknown): Exchange =>
    ({
      request: { method: 'GET', url: 'http://127.0.0.1/', headers: {}, body: '' },
      response: { status: 200, headers: {}, body: JSON.stringify(json), json },
      ms: 1,
    }) as unknown as Exchange;

  it('returns the body typed by the schema id, and still takes the type argument a 0.1 team check gave', () => {
    const balance = { wallet_id: 'W1', currency: 'KWD', balance: '1.000' };
    const typed = expectSchema(exchange(balance), 'balance-record', 'balance');
    expectTypeOf(typed).toEqualTypeOf<BalanceRecord>();
    const theirs = expectSchema<{ wallet_id: string }>(exchange(balance), 'balance-record', 'balance');
    expectTypeOf(theirs).toEqualTypeOf<{ wallet_id: string }>();
    expect(theirs.wallet_id).toBe('W1');
    expect(() => expectSchema(exchange({ nope: 1 }), 'balance-record', 'balance')).toThrow(/does not match balance-record/);
  });
});
