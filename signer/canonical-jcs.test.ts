import jcs from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from './canonical.js';

// P-SIGN-1 is the JSON Canonicalization Scheme (RFC 8785) on I-JSON values (RFC 7493). These tests
// compare the kit with an independent JCS implementation (npm `canonicalize`) and with the RFC's own
// examples, over that common domain. The one place the kit goes further is pinned at the end.

const SEED = 8785;

/** A lone surrogate is outside I-JSON, hence outside JCS's domain (the kit escapes it, JCS refuses). */
const hasLoneSurrogate = (text: string): boolean => /\p{Cs}/u.test(text);

// Keys chosen so UTF-16 order and code point order disagree (U+FB33 sorts after U+1F600's high
// surrogate D83D, though its code point is lower), plus RFC 8785 section 3.2.3's keys and integer-like keys.
const tricky = [
  '\uFB33',
  '\uD83D\uDE00',
  '\uFFFF',
  '\uE000',
  '\u20AC',
  '\r',
  '1',
  '10',
  '9',
  '\u0080',
  '\u00F6',
  'a',
  'A',
  '',
  '/',
  '\u2028',
];
const text = fc
  .oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom(...tricky))
  .filter((s) => !hasLoneSurrogate(s));

const special = [
  0,
  -0,
  1,
  -1,
  1e21,
  1e-7,
  1e-6,
  999999999999999900000,
  5e-324,
  -5e-324,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  2 ** 53,
  -(2 ** 53),
  333333333.33333329,
  100.5,
  0.1,
  1e23,
  1e300,
  1e-300,
];
// The edges are weighted up: left to chance, 500 runs of this seed once missed -0 altogether.
const number = fc.oneof(
  { arbitrary: fc.constantFrom(...special), weight: 4 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 2 },
  { arbitrary: fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), weight: 1 },
  { arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 100), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.integer({ min: -9999, max: 9999 }), fc.integer({ min: -330, max: 310 }))
      .map(([m, e]) => Number(`${m}e${e}`))
      .filter(Number.isFinite),
    weight: 2,
  },
);

const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    { arbitrary: number, weight: 3 },
    { arbitrary: text, weight: 2 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: tie('array'), weight: 2 },
    { arbitrary: tie('object'), weight: 2 },
  ),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(text, tie('value'), { maxKeys: 6 }),
})).value;

describe('canonicalize is RFC 8785 (JCS) on I-JSON values (P-SIGN-1)', () => {
  it(`agrees with the npm canonicalize package (seed ${SEED})`, () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        expect(canonicalize(value)).toBe(jcs(value));
      }),
      { numRuns: 500, seed: SEED },
    );
  });

  it('agrees on objects whose keys differ only in UTF-16 vs code point order', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(tricky, { minLength: 2 }), fc.integer(), (keys, n) => {
        const object = Object.fromEntries(keys.map((key, i) => [key, { [key]: n + i }]));
        expect(canonicalize(object)).toBe(jcs(object));
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  // RFC 8785 Appendix B: IEEE 754 bit patterns and their JCS text (NaN and Infinity are errors).
  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('writes the double with bits %s as %s (RFC 8785 Appendix B)', (bits, expected) => {
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, BigInt(`0x${bits}`));
    expect(canonicalize(view.getFloat64(0))).toBe(expected);
  });

  it.each([['7fffffffffffffff'], ['7ff0000000000000']])('refuses the double with bits %s (NaN, Infinity: RFC 8785 Appendix B)', (bits) => {
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, BigInt(`0x${bits}`));
    expect(() => canonicalize(view.getFloat64(0))).toThrow('not a JSON value');
  });

  it('sorts the keys of RFC 8785 section 3.2.3 as the RFC does', () => {
    const input =
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}';
    const canonical = canonicalize(JSON.parse(input));
    // Read the order from the text: JSON.parse would move the integer-like key "1" first again.
    expect([...canonical.matchAll(/:"([^"]*)"/g)].map((match) => match[1])).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
    expect(canonical).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it("writes RFC 8785 section 3.2.2's example as the RFC does", () => {
    const input =
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}';
    expect(canonicalize(JSON.parse(input))).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  // Outside I-JSON the two part: the kit writes a lone surrogate as JSON.stringify does (an escape),
  // where JCS has no canonical form and refuses. Pinned so the documentation's claim stays exact.
  it('differs from JCS only outside I-JSON: a lone surrogate is escaped by the kit, refused by JCS', () => {
    expect(canonicalize({ s: '\uD800' })).toBe('{"s":"\\ud800"}');
    expect(() => jcs({ s: '\uD800' })).toThrow('Lone surrogate');
  });

  it('differs from JCS only outside I-JSON: a body text that repeats a key is signed with its last value', () => {
    // What `svc-conformance sign` does with such a text (it parses it with JSON.parse); I-JSON has no repeated keys.
    expect(canonicalize(JSON.parse('{"a":1,"b":0,"a":2}'))).toBe('{"a":2,"b":0}');
  });
});
