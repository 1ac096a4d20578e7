/**
 * A JSON parser that keeps what JSON.parse throws away: the order keys came in (JavaScript objects
 * move integer-like keys first) and each number's text as written (`1499.50`). Diagnosis needs both
 * to rebuild the text a client may have signed.
 */
export type JsonNode =
  | { kind: 'object'; entries: Array<[key: string, value: JsonNode]> }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; text: string; value: number }
  | { kind: 'literal'; text: 'true' | 'false' | 'null' };

export class JsonTreeError extends Error {
  override readonly name = 'JsonTreeError';
  readonly code = 'SVC_JSON_SYNTAX';
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export function parseJsonTree(text: string): JsonNode {
  let at = 0;

  const skipWhitespace = (): void => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  const fail = (what: string): never => {
    throw new JsonTreeError(`${what} at offset ${at}`, at);
  };

  const readString = (): string => {
    at++; // opening quote
    let value = '';
    let start = at;
    for (;;) {
      const ch = text.charCodeAt(at);
      if (Number.isNaN(ch)) fail('unterminated string');
      if (ch === 0x22) break;
      if (ch < 0x20) fail('unescaped control character in string');
      if (ch !== 0x5c) {
        at++;
        continue;
      }
      value += text.slice(start, at);
      const escape = text[at + 1] ?? '';
      if (escape === 'u') {
        const hex = text.slice(at + 2, at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
        value += String.fromCharCode(parseInt(hex, 16));
        at += 6;
      } else {
        const simple = SIMPLE_ESCAPES[escape];
        if (simple === undefined) fail('bad escape');
        value += simple;
        at += 2;
      }
      start = at;
    }
    value += text.slice(start, at);
    at++; // closing quote
    return value;
  };

  const readValue = (): JsonNode => {
    skipWhitespace();
    const ch = text[at];
    if (ch === '{') {
      at++;
      const entries: Array<[string, JsonNode]> = [];
      skipWhitespace();
      if (text[at] === '}') {
        at++;
        return { kind: 'object', entries };
      }
      for (;;) {
        skipWhitespace();
        if (text[at] !== '"') fail('expected a key');
        const key = readString();
        skipWhitespace();
        if (text[at] !== ':') fail('expected ":"');
        at++;
        entries.push([key, readValue()]);
        skipWhitespace();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === '}') {
          at++;
          return { kind: 'object', entries };
        }
        fail('expected "," or "}"');
      }
    }
    if (ch === '[') {
      at++;
      const items: JsonNode[] = [];
      skipWhitespace();
      if (text[at] === ']') {
        at++;
        return { kind: 'array', items };
      }
      for (;;) {
        items.push(readValue());
        skipWhitespace();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === ']') {
          at++;
          return { kind: 'array', items };
        }
        fail('expected "," or "]"');
      }
    }
    if (ch === '"') return { kind: 'string', value: readString() };
    for (const literal of ['true', 'false', 'null'] as const) {
      if (text.startsWith(literal, at)) {
        at += literal.length;
        return { kind: 'literal', text: literal };
      }
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number === null) return fail('unexpected character');
    at = NUMBER.lastIndex;
    return { kind: 'number', text: number[0], value: Number(number[0]) };
  };

  const root = readValue();
  skipWhitespace();
  if (at !== text.length) fail('unexpected text after the JSON value');
  return root;
}
