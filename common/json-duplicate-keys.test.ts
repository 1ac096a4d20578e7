import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from './json-depth.js';
import { jsonTextFault, TOO_DEEP, type DuplicateKey } from './json-duplicate-keys.js';

/** The scan without a depth limit: its first repeated key, or undefined. */
function firstDuplicateKey(text: string): DuplicateKey | undefined {
  const found = jsonTextFault(text, Number.POSITIVE_INFINITY);
  return found === TOO_DEEP ? undefined : found;
}

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
    {
      description: 'an escaped backslash just before a closing quote',
      text: '{"a\\\\":1,"a\\\\":2}',
      expected: { key: 'a\\', pointer: '' },
    },
    {
      description: 'an escaped quote then a backslash pair in a key',
      text: '{"x\\"\\\\":1,"y":2,"x\\"\\\\":3}',
      expected: { key: 'x"\\', pointer: '' },
    },
    { description: 'a value ending in backslashes, then a key', text: '{"a":"\\\\\\\\","a":1}', expected: { key: 'a', pointer: '' } },
    { description: 'keys equal only once decoded, nested', text: '{"o":{"\\u00e9":1,"é":2}}', expected: { key: 'é', pointer: '/o' } },
    {
      description: 'a repeat in the third object of an array',
      text: '{"l":[{"a":1},{"a":1},{"a":1,"b":[1,2],"a":2}]}',
      expected: { key: 'a', pointer: '/l/2' },
    },
    {
      description: 'arrays of arrays before an object',
      text: '[[1,[2,3]],[4],{"k":[{"z":0,"z":1}]}]',
      expected: { key: 'z', pointer: '/2/k/0' },
    },
    { description: 'a pointer escapes ~ and /', text: '{"a/b":{"~":{"c":1,"c":2}}}', expected: { key: 'c', pointer: '/a~1b/~0' } },
    {
      description: 'the first repeat in text order, an inner one first',
      text: '{"a":{"b":1,"b":2},"a":3}',
      expected: { key: 'b', pointer: '/a' },
    },
    { description: 'a key seen again after its object closed', text: '{"a":{"b":1},"b":2,"c":{"b":3}}', expected: undefined },
    {
      description: 'whitespace of every kind between tokens',
      text: '\t{\r\n"a"\t:\r[ 1 ,\n{ "b" : 1 } ] ,\n"b":\t2 , "a" :0}',
      expected: { key: 'a', pointer: '' },
    },
  ];
  for (const { description, text, expected } of cases) {
    it(description, () => {
      JSON.parse(text); // every case is valid JSON, as the scanner requires
      expect(firstDuplicateKey(text)).toEqual(expected);
    });
  }

  // Objects of many keys: every key is remembered, not only the last few.
  const manyKeys = (count: number) => Array.from({ length: count }, (_, i) => `"k${i}":${i}`).join(',');
  const manyKeyCases: Array<{ description: string; text: string; expected: DuplicateKey | undefined }> = [
    { description: '40 keys, none repeated', text: `{${manyKeys(40)}}`, expected: undefined },
    { description: 'a repeat of the first key after 40 others', text: `{${manyKeys(40)},"k0":0}`, expected: { key: 'k0', pointer: '' } },
    { description: 'a repeat of the 3rd key after 40 others', text: `{${manyKeys(40)},"k2":0}`, expected: { key: 'k2', pointer: '' } },
    { description: 'a repeat of the 31st key', text: `{${manyKeys(40)},"k30":0}`, expected: { key: 'k30', pointer: '' } },
    {
      description: 'a repeat of the 17th key right after it',
      text: `{${manyKeys(17)},"k16":0}`,
      expected: { key: 'k16', pointer: '' },
    },
    {
      description: 'an object of 20 keys inside one of 20, each key once, then a repeat in the outer one',
      text: `{${manyKeys(10)},"inner":{${manyKeys(20)}},${manyKeys(20).replaceAll('"k', '"m')},"k5":1}`,
      expected: { key: 'k5', pointer: '' },
    },
    {
      description: "an inner object's keys are not the outer one's",
      text: `{${manyKeys(18)},"inner":{${manyKeys(18)},"k17":0}}`,
      expected: { key: 'k17', pointer: '/inner' },
    },
    { description: 'keys shared by sibling objects are no repeat', text: `[{${manyKeys(20)}},{${manyKeys(20)}}]`, expected: undefined },
  ];
  for (const { description, text, expected } of manyKeyCases) {
    it(description, () => {
      JSON.parse(text);
      expect(firstDuplicateKey(text)).toEqual(expected);
      expect(repeatByRecursiveParse(text)).toEqual(expected);
    });
  }

  it('scans a body nested 100,000 levels deep without overflowing the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(firstDuplicateKey(deep)).toBeUndefined();
  });
});

describe('jsonTextFault: a repeated key, else a depth past the limit', () => {
  /** The reference: the recursive parse's first repeat, else the parsed value's depth as nestedDeeperThan counts it. */
  const reference = (text: string, limit: number) =>
    repeatByRecursiveParse(text) ?? (nestedDeeperThan(JSON.parse(text), limit) ? TOO_DEEP : undefined);

  it('says what the reference says, on generated bodies with repeats, escapes and whitespace, at limits 1 to 6', () => {
    fc.assert(
      fc.property(jsonWithRepeats, fc.integer({ min: 1, max: 6 }), (text, limit) => {
        expect(jsonTextFault(text, limit)).toEqual(reference(text, limit));
      }),
      { numRuns: 1000 },
    );
  });

  const deep = (levels: number, inner = '1') => '{"a":['.repeat(levels) + inner + ']}'.repeat(levels);
  const cases: Array<{ description: string; text: string; limit: number; expected: ReturnType<typeof jsonTextFault> }> = [
    { description: 'at the limit, not past it', text: deep(2), limit: 4, expected: undefined },
    { description: 'one level past the limit', text: deep(2, '{}'), limit: 4, expected: TOO_DEEP },
    { description: 'a scalar body has no depth', text: '"x"', limit: 0, expected: undefined },
    { description: 'the deep branch after a shallow one', text: '{"s":[1],"d":[[[[1]]]]}', limit: 4, expected: TOO_DEEP },
    { description: 'brackets inside strings are not levels', text: '{"a":"[[[[{{{{","b":"\\\\"}', limit: 1, expected: undefined },
    {
      description: 'a repeat wins over a depth met before it',
      text: `{"d":${deep(3)},"d":1}`,
      limit: 2,
      expected: { key: 'd', pointer: '' },
    },
    {
      description: 'a repeat wins over a depth met after it',
      text: `{"x":{"k":1,"k":2},"d":${deep(3)}}`,
      limit: 2,
      expected: { key: 'k', pointer: '/x' },
    },
    { description: 'an escaped key, and too deep', text: `{"\\u0061":${deep(3)}}`, limit: 3, expected: TOO_DEEP },
    { description: 'an escaped key, at the limit', text: `{"\\u0061":${deep(1)}}`, limit: 3, expected: undefined },
    {
      description: 'an escaped key, then a plain repeat of it deeper in',
      text: '{"o":{"\\u0062":[1],"b":2}}',
      limit: 9,
      expected: { key: 'b', pointer: '/o' },
    },
    {
      description: 'a repeat in an object of 20 keys with one escaped',
      text: `{${Array.from({ length: 20 }, (_, i) => `"k${i}":${i}`).join(',')},"\\u006b3":0}`,
      limit: 9,
      expected: { key: 'k3', pointer: '' },
    },
  ];
  for (const { description, text, limit, expected } of cases) {
    it(description, () => {
      JSON.parse(text); // every case is valid JSON, as the scanner requires
      expect(jsonTextFault(text, limit)).toEqual(expected);
      expect(reference(text, limit)).toEqual(expected);
    });
  }

  it('finds an escaped key repeated plainly after many others', () => {
    const later = Array.from({ length: 19 }, (_, i) => `"k${i + 1}":${i}`).join(',');
    const text = `{"\\u006b0":0,${later},"k0":1}`;
    expect(jsonTextFault(text, 9)).toEqual({ key: 'k0', pointer: '' });
    expect(reference(text, 9)).toEqual({ key: 'k0', pointer: '' });
  });

  it('tells keys apart by every character: the first, the last, one in the middle, short keys and long', () => {
    for (const length of [1, 2, 3, 16, 17, 40]) {
      const base = 'k'.repeat(length);
      const at = (i: number) => `${base.slice(0, i)}z${base.slice(i + 1)}`;
      for (const i of new Set([0, Math.floor(length / 2), length - 1])) {
        expect(jsonTextFault(`{"${base}":1,"${at(i)}":2}`, 9)).toBeUndefined();
        expect(jsonTextFault(`{"${at(i)}":1,"o":{"${base}":0},"${at(i)}":2}`, 9)).toEqual({ key: at(i), pointer: '' });
      }
    }
    expect(jsonTextFault('{"":1,"a":2,"":3}', 9)).toEqual({ key: '', pointer: '' });
  });

  it('neither throws nor spoils the next scan on a text that is no JSON (a stray close, a value left open)', () => {
    const many = Array.from({ length: 20 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(jsonTextFault(']}{"a":1}', 9)).toBeUndefined();
    expect(jsonTextFault(`{"x":{${many}`, 9)).toBeUndefined();
    expect(jsonTextFault('{"x":{"k3":1}}', 9)).toBeUndefined();
    expect(jsonTextFault('{"x":{"k3":1,"k3":2}}', 9)).toEqual({ key: 'k3', pointer: '/x' });
  });

  it('carries nothing from a scan that stopped at a repeat deep inside an object of many keys to the next', () => {
    const many = Array.from({ length: 20 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(jsonTextFault(`[[{"o":{${many},"k7":0}}]]`, 9)).toEqual({ key: 'k7', pointer: '/0/0/o' });
    expect(jsonTextFault('[[{"o":{"k7":0}}]]', 9)).toBeUndefined();
    expect(jsonTextFault(`[[{"o":{"k7":0,${many.replaceAll('"k', '"m')}}}]]`, 9)).toBeUndefined();
    expect(jsonTextFault('{"k7":0,"o":{"k7":1}}', 9)).toBeUndefined();
  });

  it('finds a body 100,000 levels deep too deep without overflowing the stack, then scans small bodies as before', () => {
    expect(jsonTextFault('['.repeat(100_000) + ']'.repeat(100_000), 32)).toBe(TOO_DEEP);
    expect(jsonTextFault(`{${Array.from({ length: 5_000 }, (_, i) => `"k${i}":{"a":1}`).join(',')},"k1":1}`, 32)).toEqual({
      key: 'k1',
      pointer: '',
    });
    expect(jsonTextFault('{"a":{"b":1,"b":2}}', 32)).toEqual({ key: 'b', pointer: '/a' });
    expect(jsonTextFault('{"a":{"b":1}}', 1)).toBe(TOO_DEEP);
  });
});

/** Keys from a few letters, so objects repeat them; some written with escapes, so a repeat may only show once decoded. */
const key = fc.constantFrom('a', 'b', '"', '\\', 'a\\', '~/', 'é');
const written = (text: string) =>
  fc
    .constantFrom('plain', 'escaped')
    .map((form) =>
      form === 'plain' ? JSON.stringify(text) : `"${[...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`,
    );
const space = fc.constantFrom('', ' ', '\n', '\t ', '\r\n');
const { value: jsonValue } = fc.letrec<{ value: string; object: string; array: string; scalar: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('scalar'), tie('object'), tie('array')),
  scalar: fc.oneof(fc.constantFrom('1', '-0.5e3', 'true', 'null', '"\\\\"', '"a\\""', '"{\\"a\\":1,"'), key.chain(written)),
  object: fc
    .array(fc.tuple(key.chain(written), space, tie('value'), space), { maxLength: 4 })
    .map((entries) => `{${entries.map(([k, s1, v, s2]) => `${s1}${k}${s2}:${s1}${v}${s2}`).join(',')}}`),
  array: fc.array(fc.tuple(space, tie('value')), { maxLength: 4 }).map((items) => `[${items.map(([s, v]) => s + v).join(',')}]`),
}));
const jsonWithRepeats = fc.tuple(space, jsonValue, space).map(([a, v, b]) => a + v + b);

/** The reference: a plain recursive-descent parse that notes the first key an object holds twice, in text order. */
function repeatByRecursiveParse(text: string): DuplicateKey | undefined {
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const readString = (): string => {
    const start = i;
    for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const pointer = (path: readonly string[]) => path.map((p) => `/${p.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
  const readValue = (path: string[]): DuplicateKey | undefined => {
    skipSpace();
    const c = text[i];
    if (c === '"') {
      readString();
      return undefined;
    }
    if (c === '{' || c === '[') {
      const isObject = c === '{';
      const seen = new Set<string>();
      i++;
      skipSpace();
      for (let index = 0; text[i] !== (isObject ? '}' : ']'); index++) {
        let step = String(index);
        if (isObject) {
          skipSpace();
          step = readString();
          if (seen.has(step)) return { key: step, pointer: pointer(path) };
          seen.add(step);
          skipSpace();
          i++; // the colon
        }
        const found = readValue([...path, step]);
        if (found !== undefined) return found;
        skipSpace();
        if (text[i] === ',') i++;
      }
      i++;
      return undefined;
    }
    while (i < text.length && !',]} \t\r\n'.includes(text[i]!)) i++;
    return undefined;
  };
  return readValue([]);
}
