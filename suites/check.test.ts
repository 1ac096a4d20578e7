// The public check API refuses a malformed check or requirement when it is made, with a message
// that starts with the API's name and says what to give; then the helpers every check judges with.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Exchange } from '../core/exchange.js';
import type { BalanceRecord } from '../schemas/types.js';
import {
  answered,
  CheckFailure,
  CheckInconclusive,
  CheckSkipped,
  defineCheck,
  defineRequirement,
  expectSchema,
  expectStatus,
  expectThat,
  isCheckFailure,
  isCheckInconclusive,
  isCheckSkipped,
  type Check,
} from './check.js';
import { exchangeOf, madeUpConfig, type Reply } from './checks/made-up-server-test-support.js';

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

describe('expectStatus', () => {
  const answer = (reply: Reply) => exchangeOf(madeUpConfig(), { label: 'x', path: '/x', payload: {} }, reply);

  it('passes a status of the list, and fails another or no answer, naming both', () => {
    expect(() => expectStatus(answer(201), [200, 201], 'why')).not.toThrow();
    expect(() => expectStatus(answer(202), [200, 201], 'why')).toThrow('why: expected HTTP 200 or 201, got 202');
    expect(() => expectStatus(answer('no answer'), [200], 'why')).toThrow('why: expected HTTP 200, got no answer');
  });

  it('expectSchema says when there was no JSON, or no answer', () => {
    expect(() => expectSchema(answer({ status: 200, text: 'ok' }), 'balance-record', 'why')).toThrow(
      'why: expected a JSON body (balance-record), got no JSON',
    );
    expect(() => expectSchema(answer('no answer'), 'balance-record', 'why')).toThrow(
      'why: expected a JSON body (balance-record), got no answer',
    );
  });

  it('expectThat throws its message and details only when the condition is false', () => {
    expect(() => expectThat(true, 'never')).not.toThrow();
    expect(() => expectThat(false, 'the message', { expected: 'e' })).toThrow(new CheckFailure('the message', { expected: 'e' }));
  });
});

describe('answered: what came back, in a few words', () => {
  const answer = (reply: Reply) => answered(exchangeOf(madeUpConfig(), { label: 'x', path: '/x', payload: {} }, reply));

  it('the status, the content type and the JSON body', () => {
    expect(answer({ status: 404, json: { a: 1 } })).toBe('HTTP 404 (application/json) {"a":1}');
    expect(answer('no answer')).toBe('connection refused');
  });

  it('the text body, its first 200 characters; a JSON body cut at 300', () => {
    expect(answer({ status: 500, text: 'x'.repeat(250), contentType: 'text/plain' })).toBe(`HTTP 500 (text/plain) "${'x'.repeat(200)}"`);
    expect(answer({ status: 200, json: 'y'.repeat(299) })).toBe(`HTTP 200 (application/json) "${'y'.repeat(299)}…`);
    expect(answer({ status: 200, json: 'y'.repeat(298) })).toBe(`HTTP 200 (application/json) "${'y'.repeat(298)}"`);
  });

  it('no content type when none was sent', () => {
    const exchange = exchangeOf(madeUpConfig(), { label: 'x', path: '/x', payload: {} }, 204);
    delete exchange.response!.headers['content-type'];
    expect(answered(exchange)).toMatch(/^HTTP 204 \(no content type\) /);
  });
});

describe('the brands: a failure, a skip or an inconclusive check, whichever copy of the kit made it', () => {
  it('tells each by its brand, and nothing else by it', () => {
    const [failure, skipped, inconclusive] = [new CheckFailure('f'), new CheckSkipped('s'), new CheckInconclusive('i')];
    expect(
      [failure, skipped, inconclusive, new Error('e'), null, 'text', undefined].map((e) => [
        isCheckFailure(e),
        isCheckSkipped(e),
        isCheckInconclusive(e),
      ]),
    ).toEqual([
      [true, false, false],
      [false, true, false],
      [false, false, true],
      [false, false, false],
      [false, false, false],
      [false, false, false],
      [false, false, false],
    ]);
    expect(isCheckFailure({ [Symbol.for('svc-conformance.CheckFailure')]: true })).toBe(true);
  });
});

describe('defineCheck and defineRequirement: what they take', () => {
  it('takes a check without lane or alone, and ids of letters, digits, ".", "_" and "-"', () => {
    expect(defineCheck({ id: 'A.b_c-1', requirement: 'R', title: 't', run })).toMatchObject({ id: 'A.b_c-1' });
    for (const id of ['', '-a', 'a b', 7])
      expect(() => defineCheck({ id, requirement: 'R', title: 't', run } as unknown as Check), String(id)).toThrow(/^defineCheck: id /);
    expect(() => defineCheck({ id: 'a', requirement: '', title: 't', run })).toThrow(/requirement must name/);
    expect(() => defineCheck({ id: 'a', requirement: 'R', title: '', run })).toThrow(/title must say/);
    expect(() => defineCheck({ id: 'a', requirement: 'R', title: 't', alone: true, run })).not.toThrow();
  });

  it('keeps a requirement of the profile as given, and refuses rules that are not a list of text', () => {
    const rules = { id: 'ACME-ONE', title: 't', level: 'MUST' as const, section: 'Acme' };
    expect(defineRequirement({ ...rules, profile: ['P-OPS-1'], extension: false })).toMatchObject({
      profile: ['P-OPS-1'],
      extension: false,
    });
    expect(() => defineRequirement({ ...rules, profile: 'P-OPS-1' } as never)).toThrow(/profile must be a list of rule ids/);
    expect(() => defineRequirement({ ...rules, profile: [1] } as never)).toThrow(/profile must be a list of rule ids/);
    expect(() => defineRequirement({ ...rules, title: '' })).toThrow(/title must state the requirement/);
    expect(() => defineRequirement(null as never)).toThrow(/^defineRequirement: give an object/);
    expect(() => defineRequirement({ ...rules, id: '-A' })).toThrow(/must be upper-case/);
    expect(Object.isFrozen(defineRequirement(rules))).toBe(true);
    for (const level of ['MUST', 'SHOULD', 'MAY'] as const) expect(defineRequirement({ ...rules, level }).level).toBe(level);
  });
});
