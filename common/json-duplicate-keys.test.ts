import { describe, expect, it } from 'vitest';
import { firstDuplicateKey } from './json-duplicate-keys.js';

describe('firstDuplicateKey', () => {
  const cases: Array<{ description: string; text: string; expected: ReturnType<typeof firstDuplicateKey> }> = [
    { description: 'no repeat', text: '{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}', expected: undefined },
    {
      description: 'a repeat at the top',
      text: '{"order_id":"A","order_amount":1,"order_id":"B"}',
      expected: { key: 'order_id', pointer: '' },
    },
    {
      description: 'a repeat inside a nested object',
      text: '{"customer":{"name":"x","name":"y"}}',
      expected: { key: 'name', pointer: '/customer' },
    },
    {
      description: 'a repeat inside an array element',
      text: '{"list":[{"a":1},{"b":1,"b":2}]}',
      expected: { key: 'b', pointer: '/list/1' },
    },
    { description: 'keys equal once decoded', text: '{"a":1,"\\u0061":2}', expected: { key: 'a', pointer: '' } },
    { description: 'a key-like string value is not a key', text: '{"a":"b","b":"a","c":["a","a"]}', expected: undefined },
    { description: 'escaped quotes and braces inside strings', text: '{"a":"x\\"}{,\\"a\\":","b":"\\\\","a\\"":1}', expected: undefined },
    { description: 'the same key in sibling objects', text: '[{"a":1},{"a":1}]', expected: undefined },
    { description: 'a scalar body', text: '"a"', expected: undefined },
    { description: 'whitespace around everything', text: ' { "a" : 1 ,\n "a" : 2 } ', expected: { key: 'a', pointer: '' } },
  ];
  for (const { description, text, expected } of cases) {
    it(description, () => {
      JSON.parse(text); // every case is valid JSON, as the scanner requires
      expect(firstDuplicateKey(text)).toEqual(expected);
    });
  }

  it('scans a body nested 100,000 levels deep without overflowing the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(firstDuplicateKey(deep)).toBeUndefined();
  });
});
