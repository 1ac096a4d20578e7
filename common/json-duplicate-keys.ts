// P-HTTP-4: a body in which an object repeats a key. JSON.parse keeps the last value silently, while a
// signature check (or a proxy, or a second parser) may have read the first: two readers, two requests.
// So the repeat is found in the text itself, before any parser has thrown the first value away.

/** Where a key repeats: the key as decoded, and the JSON Pointer of the object that holds it twice. */
export interface DuplicateKey {
  key: string;
  pointer: string;
}

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const COMMA = 0x2c; // ,
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
/** Keys an object may hold before its own Set replaces the look along the shared list. */
const FEW_KEYS = 16;

/**
 * The first key that an object of `text` holds twice, compared as decoded text ("a" and "\u0061" are
 * one key), or undefined when there is none. `text` must be valid JSON (parse it first): the scanner
 * trusts its grammar and only tracks where keys begin. Iterative, so a deep body cannot overflow the
 * stack, and linear in the text's length. It runs on every request the sandbox answers, so it keeps
 * its state in parallel stacks rather than an object per open value, and an object's keys in one
 * shared list: an object of the interface holds a handful, and a look along them beats a Set per
 * object. An object with more keys than that gets a Set, so the scan stays linear however many.
 */
export function firstDuplicateKey(text: string): DuplicateKey | undefined {
  // Every key of the objects open now, in one list; for each open value, where its own keys begin
  // in that list (-1 for an array), and where the scan is inside it (an object's current key, an
  // array's current index), for the pointer.
  const seen: string[] = [];
  const firstKey: number[] = [];
  // For each open value: the Set of an object's keys once it has more than FEW_KEYS, else null.
  const many: Array<Set<string> | null> = [];
  const at: Array<string | number> = [];
  // The next string read is a key: right after an object's `{` or `,`.
  let expectKey = false;
  // Where the next backslash is (text.length when none is left): found once, not once per key.
  let backslash = text.indexOf('\\');
  if (backslash === -1) backslash = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) {
        if (backslash < i) {
          backslash = text.indexOf('\\', i);
          if (backslash === -1) backslash = text.length;
        }
        // A key with no escape is its text as it stands; only an escaped one needs decoding.
        const key = backslash < end ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        const top = firstKey.length - 1;
        const set = many[top];
        if (set != null) {
          if (set.has(key)) return { key, pointer: pointerOf(at) };
          set.add(key);
        } else {
          const from = firstKey[top]!;
          for (let k = from; k < seen.length; k++) if (seen[k] === key) return { key, pointer: pointerOf(at) };
          seen.push(key);
          if (seen.length - from > FEW_KEYS) {
            many[top] = new Set(seen.slice(from));
            seen.length = from;
          }
        }
        at[at.length - 1] = key;
        expectKey = false;
      }
      i = end;
    } else if (code === OPEN_OBJECT) {
      firstKey.push(seen.length);
      many.push(null);
      at.push('');
      expectKey = true;
    } else if (code === OPEN_ARRAY) {
      firstKey.push(-1);
      many.push(null);
      at.push(0);
      expectKey = false;
    } else if (code === CLOSE_OBJECT) {
      // The object's keys leave the list with it.
      seen.length = firstKey.pop()!;
      many.pop();
      at.pop();
    } else if (code === CLOSE_ARRAY) {
      firstKey.pop();
      many.pop();
      at.pop();
    } else if (code === COMMA) {
      const top = at.length - 1;
      expectKey = firstKey[top] !== -1;
      if (!expectKey) at[top] = (at[top] as number) + 1;
    }
  }
  return undefined;
}

/**
 * The index of the quote that closes the string opened at `start`: the next quote not escaped, i.e.
 * not preceded by an odd run of backslashes.
 */
function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length - 1;
}

/** The JSON Pointer (RFC 6901) of the innermost open object, from where the scan is in each value around it. */
function pointerOf(at: readonly (string | number)[]): string {
  let pointer = '';
  for (let depth = 0; depth < at.length - 1; depth++) {
    pointer += `/${String(at[depth]).replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  return pointer;
}
