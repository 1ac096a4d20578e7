// P-HTTP-4: a body in which an object repeats a key. JSON.parse keeps the last value silently, while a
// signature check (or a proxy, or a second parser) may have read the first: two readers, two requests.
// So the repeat is found in the text itself, before any parser has thrown the first value away.

/** Where a key repeats: the key as decoded, and the JSON Pointer of the object that holds it twice. */
export interface DuplicateKey {
  key: string;
  pointer: string;
}

interface ObjectFrame {
  kind: 'object';
  keys: Set<string>;
  /** The next string read is a key (right after `{` or `,`), not a value. */
  expectKey: boolean;
  /** The key under which this object's current value sits, for the pointer. */
  currentKey?: string;
}

interface ArrayFrame {
  kind: 'array';
  index: number;
}

type Frame = ObjectFrame | ArrayFrame;

/**
 * The first key that an object of `text` holds twice, compared as decoded text ("a" and "\u0061" are
 * one key), or undefined when there is none. `text` must be valid JSON (parse it first): the scanner
 * trusts its grammar and only tracks where keys begin. Iterative, so a deep body cannot overflow the
 * stack, and linear in the text's length.
 */
export function firstDuplicateKey(text: string): DuplicateKey | undefined {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') stack.push({ kind: 'object', keys: new Set(), expectKey: true });
    else if (ch === '[') stack.push({ kind: 'array', index: 0 });
    else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.expectKey = true;
      else if (top?.kind === 'array') top.index += 1;
    } else if (ch === '"') {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectKey) {
        // A key with no escape is its text as it stands; only an escaped one needs decoding.
        const raw = text.slice(i, end + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (top.keys.has(key)) return { key, pointer: pointerOf(stack) };
        top.keys.add(key);
        top.currentKey = key;
        top.expectKey = false;
      }
      i = end;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `start` (escapes skipped). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

/** The JSON Pointer (RFC 6901) of the innermost open object. */
function pointerOf(stack: readonly Frame[]): string {
  const parts: string[] = [];
  for (const frame of stack.slice(0, -1)) {
    const part = frame.kind === 'array' ? String(frame.index) : (frame.currentKey ?? '');
    parts.push(part.replaceAll('~', '~0').replaceAll('/', '~1'));
  }
  return parts.length === 0 ? '' : `/${parts.join('/')}`;
}
