// A JSON parser that keeps what JSON.parse drops and diagnosis needs to rebuild a signed text: the
// order keys came in (objects move integer-like keys first) and each number's text (`1499.50`).
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
/** One JSON string token; JSON.parse then decodes it (lone surrogates included). */
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERALS = ['true', 'false', 'null'] as const;

export function parseJsonTree(text: string): JsonNode {
  const reader = new Reader(text);
  const root = reader.value();
  reader.skipWhitespace();
  if (reader.at !== text.length) reader.fail('unexpected text after the JSON value');
  return root;
}

class Reader {
  at = 0;
  constructor(private readonly text: string) {}

  fail(what: string): never {
    throw new JsonTreeError(`${what} at offset ${this.at}`, this.at);
  }

  skipWhitespace(): void {
    this.at = this.sticky(WHITESPACE)!.lastIndex;
  }

  value(): JsonNode {
    this.skipWhitespace();
    const ch = this.text[this.at];
    if (ch === '{') return { kind: 'object', entries: this.list('}', () => this.entry()) };
    if (ch === '[') return { kind: 'array', items: this.list(']', () => this.value()) };
    if (ch === '"') return { kind: 'string', value: this.string() };
    const literal = LITERALS.find((word) => this.text.startsWith(word, this.at));
    if (literal !== undefined) {
      this.at += literal.length;
      return { kind: 'literal', text: literal };
    }
    const number = this.sticky(NUMBER);
    if (number === undefined) return this.fail('unexpected character');
    this.at = number.lastIndex;
    return { kind: 'number', text: number.token, value: Number(number.token) };
  }

  /** Items separated by commas after an opening bracket, up to `close`. */
  private list<T>(close: '}' | ']', item: () => T): T[] {
    this.at++;
    const items: T[] = [];
    this.skipWhitespace();
    if (this.text[this.at] === close) {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(item());
      this.skipWhitespace();
      const next = this.text[this.at];
      if (next !== ',' && next !== close) this.fail(`expected "," or "${close}"`);
      this.at++;
      if (next === close) return items;
    }
  }

  private entry(): [string, JsonNode] {
    this.skipWhitespace();
    if (this.text[this.at] !== '"') this.fail('expected a key');
    const key = this.string();
    this.skipWhitespace();
    if (this.text[this.at] !== ':') this.fail('expected ":"');
    this.at++;
    return [key, this.value()];
  }

  private string(): string {
    const token = this.sticky(STRING);
    if (token === undefined) return this.fail('bad or unterminated string');
    this.at = token.lastIndex;
    return JSON.parse(token.token) as string;
  }

  private sticky(pattern: RegExp): { token: string; lastIndex: number } | undefined {
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    return match === null ? undefined : { token: match[0], lastIndex: pattern.lastIndex };
  }
}
