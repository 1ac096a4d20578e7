import { describe, expect, it } from 'vitest';
import { minorUnitOf } from '../schemas/amounts.js';
import { canonicalize } from '../signer/canonical.js';
import { edgeSet, type AmountEdge, type EdgeSet } from './edges.js';

/** The amount's decimals fit the currency's minor unit (P-AMOUNT-2). */
function fitsMinorUnit(edge: AmountEdge): boolean {
  const fraction = /\.(\d+)/.exec(String(edge.amount))?.[1] ?? '';
  return fraction.length <= minorUnitOf(edge.currency);
}

/** The edge set as data: identifier edges spelled out for one fixed base. */
function spelled(edges: EdgeSet): string {
  const base = { text: 'ORD-BASE-1', integer: 4242 };
  return JSON.stringify({ ...edges, identifiers: edges.identifiers.map((e) => ({ label: e.label, class: e.class, ids: e.ids(base) })) });
}

describe('edgeSet', () => {
  it('is a constant, taking no seed: a seed changes the random cases, never whether an edge is tried', () => {
    expect(edgeSet.length).toBe(0);
    expect(spelled(edgeSet())).toBe(spelled(edgeSet()));
  });

  it('holds every zero spelling of P-AMOUNT-4', () => {
    expect(
      edgeSet()
        .amounts.filter((e) => e.class === 'zero')
        .map((e) => e.spelled),
    ).toEqual(['0', '0.0', '0.00', '"0"', '"0.00"', '"-0.00"']);
  });

  it('holds exact amounts in 0-, 2- and 3-decimal currencies, each as a number and as a string, within the minor unit', () => {
    const exact = edgeSet().amounts.filter((e) => e.class === 'exact');
    for (const currency of ['JPY', 'KRW', 'INR', 'USD', 'KWD', 'BHD', 'OMR']) expect(exact.some((e) => e.currency === currency)).toBe(true);
    expect(exact.filter((e) => typeof e.amount === 'number').length).toBe(exact.filter((e) => typeof e.amount === 'string').length);
    expect(
      edgeSet()
        .amounts.filter((e) => e.class !== 'zero')
        .every(fitsMinorUnit),
    ).toBe(true);
  });

  it('holds the largest amounts and values past 2^31 minor units, as numbers and strings', () => {
    const large = edgeSet()
      .amounts.filter((e) => e.class === 'large')
      .map((e) => e.amount);
    expect(large).toEqual(expect.arrayContaining([99999999.99, '99999999.99', 21474836.48, '21474836.48']));
    // The number is written exactly as its text: no float noise reaches the wire.
    expect(canonicalize({ a: 99999999.99 })).toBe('{"a":99999999.99}');
  });

  it("holds each identifier class, built from this run's own ids", () => {
    const ids = Object.fromEntries(edgeSet().identifiers.map((e) => [e.class, e.ids({ text: 'ORD-X', integer: 77 })]));
    // Each just past a common column width: VARCHAR(64), VARCHAR(255), VARCHAR(1024).
    expect(ids.long!.map((id) => String(id).length)).toEqual([65, 256, 1025]);
    expect(ids.long!.every((id) => String(id).startsWith('ORD-X-'))).toBe(true);
    expect(ids.case).toEqual(['AbC-ORD-X', 'abc-ord-x']);
    expect(ids['leading-zeros']).toEqual(['00077']);
    expect(ids.integer).toEqual([77]);
    expect(ids['trailing-space']).toEqual(['ORD-X-TS', 'ORD-X-TS ']);
  });

  it('holds each text class', () => {
    const texts = Object.fromEntries(edgeSet().texts.map((e) => [e.class, e.text]));
    expect(texts.astral).toMatch(/[\u{10000}-\u{10FFFF}]/u);
    expect(texts['line-separators']).toMatch(/\u2028/);
    expect(texts['line-separators']).toMatch(/\u2029/);
    expect(texts.bidi).toMatch(/\u202E/);
    expect(texts.bidi).toMatch(/\u2066/);
    for (const ch of ['<', '>', '&', '"', "'"]) expect(texts.html).toContain(ch);
    expect(texts['long-name']!.length).toBeGreaterThanOrEqual(300);
  });

  it('gives every edge a readable label, each label once', () => {
    const labels = [...edgeSet().amounts, ...edgeSet().identifiers, ...edgeSet().texts].map((e) => e.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.every((l) => l.length > 5)).toBe(true);
  });
});
