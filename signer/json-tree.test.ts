import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonTree, type JsonNode } from './json-tree.js';

function toValue(node: JsonNode): unknown {
  switch (node.kind) {
    case 'object':
      return Object.fromEntries(node.entries.map(([k, v]) => [k, toValue(v)]));
    case 'array':
      return node.items.map(toValue);
    case 'string':
      return node.value;
    case 'number':
      return node.value;
    case 'literal':
      return JSON.parse(node.text);
  }
}

describe('parseJsonTree', () => {
  it('reads the same value as JSON.parse, pretty or compact', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(toValue(parseJsonTree(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps key order, integer-like keys included, and number text as written', () => {
    const tree = parseJsonTree('{"b":1,"10":2.50,"a":-0}');
    expect(tree.kind === 'object' && tree.entries.map(([k]) => k)).toEqual(['b', '10', 'a']);
    expect(tree.kind === 'object' && tree.entries[1]![1]).toEqual({ kind: 'number', text: '2.50', value: 2.5 });
  });

  it('decodes escapes, lone surrogates included', () => {
    expect(toValue(parseJsonTree('"a\\/b\\u00e9\\ud800\\n"'))).toBe('a/bé\ud800\n');
  });

  it.each([
    ['[1 2]', 3],
    ['{"a":1,}', 7],
    ['{"a" 1}', 5],
    ['{"a":1 "b"}', 7],
    ['"abc', 0],
    ['[1] x', 4],
  ])('places the error in %j at offset %i', (text, offset) => {
    expect(() => parseJsonTree(text)).toThrow(expect.objectContaining({ offset }));
  });

  it.each(['', '{', '{"a":1,}', "{'a':1}", '[1 2]', '01', 'NaN', '"\n"', '{"a":1} x'])('refuses %j', (text) => {
    expect(() => parseJsonTree(text)).toThrow(expect.objectContaining({ name: 'JsonTreeError', code: 'SVC_JSON_SYNTAX' }));
    let threw = false;
    try {
      JSON.parse(text);
    } catch {
      threw = true;
    }
    expect(threw).toBe(true);
  });
});
