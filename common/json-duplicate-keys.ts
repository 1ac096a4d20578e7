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

/** What `jsonTextFault` says of a body nested deeper than its limit. */
export const TOO_DEEP = 'too-deep';

/**
 * The first key that an object of `text` holds twice, compared as decoded text ("a" and "\u0061" are
 * one key), or undefined when there is none. `text` must be valid JSON (parse it first): the scanner
 * trusts its grammar and only tracks where keys begin. Iterative, so a deep body cannot overflow the
 * stack, and linear in the text's length.
 */
export function firstDuplicateKey(text: string): DuplicateKey | undefined {
  const found = jsonTextFault(text, Number.POSITIVE_INFINITY);
  return found === TOO_DEEP ? undefined : found;
}

/**
 * What the sandbox refuses in a parsed body's text before reading it, found in one pass: the first key
 * an object holds twice (P-HTTP-4, as firstDuplicateKey), else TOO_DEEP when objects and arrays nest
 * more than `depthLimit` levels (the root is level 1: the same count as nestedDeeperThan on the parsed
 * value, since a text with no repeated key loses nothing to the parse), else undefined. `text` must be
 * valid JSON. It runs on every request the sandbox answers, so in the usual body (no key with an
 * escape) it allocates nothing: keys are compared in place in the text, by their positions.
 */
export function jsonTextFault(text: string, depthLimit: number): DuplicateKey | typeof TOO_DEEP | undefined {
  const found = scanInPlace(text, depthLimit);
  return found === ESCAPED_KEY ? scanDecoding(text, depthLimit) : found;
}

/** scanInPlace met a key with an escape: its text is not the key, so the scan starts again decoding keys. */
const ESCAPED_KEY = Symbol('escaped key');

// scanInPlace's stacks, kept between calls (it is synchronous and calls nothing that could call it
// again), each with its own count of entries in use: written by index, never shortened, so a scan
// allocates nothing once they have grown. For each open value: where its keys begin in the key list
// (-1 for an array), the Set of an object's keys once it holds more than FEW_KEYS (else null), and
// where the scan is inside it (an object's current key by its start and end in the text, an array's
// current index in `atStart`). The key list: where each key of the objects open now starts (after
// its quote) and ends (its closing quote).
let firstKeyOf: number[] = [];
let manyOf: Array<Set<string> | null> = [];
let atStart: number[] = [];
let atEnd: number[] = [];
let keyStart: number[] = [];
let keyEnd: number[] = [];
/** Past this many entries (a deep or wide body) the stacks are let go after the scan, not kept. */
const KEPT_STACK = 1024;

function scanInPlace(text: string, depthLimit: number): DuplicateKey | typeof TOO_DEEP | typeof ESCAPED_KEY | undefined {
  const found = scanPositions(text, depthLimit);
  if (firstKeyOf.length > KEPT_STACK || keyStart.length > KEPT_STACK) {
    firstKeyOf = [];
    manyOf = [];
    atStart = [];
    atEnd = [];
    keyStart = [];
    keyEnd = [];
  }
  return found;
}

/** The scan ends with `open` values open: the Sets of their keys are let go (a closed value's already is). */
function closeAll(open: number): void {
  for (let depth = 0; depth < open; depth++) manyOf[depth] = null;
}

function scanPositions(text: string, depthLimit: number): DuplicateKey | typeof TOO_DEEP | typeof ESCAPED_KEY | undefined {
  // Values open now, and keys in the list now.
  let open = 0;
  let keys = 0;
  let tooDeep = false;
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
        if (backslash < end) {
          closeAll(open);
          return ESCAPED_KEY;
        }
        const start = i + 1;
        const top = open - 1;
        const set = manyOf[top];
        if (set != null) {
          const key = text.slice(start, end);
          if (set.has(key)) return repeated(text, start, end, open);
          set.add(key);
        } else {
          const from = firstKeyOf[top]!;
          for (let k = from; k < keys; k++)
            if (sameText(text, keyStart[k]!, keyEnd[k]!, start, end)) return repeated(text, start, end, open);
          keyStart[keys] = start;
          keyEnd[keys] = end;
          keys++;
          if (keys - from > FEW_KEYS) {
            const held = new Set<string>();
            for (let k = from; k < keys; k++) held.add(text.slice(keyStart[k], keyEnd[k]));
            manyOf[top] = held;
            keys = from;
          }
        }
        atStart[top] = start;
        atEnd[top] = end;
        expectKey = false;
      }
      i = end;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      const isObject = code === OPEN_OBJECT;
      firstKeyOf[open] = isObject ? keys : -1;
      manyOf[open] = null;
      atStart[open] = isObject ? -1 : 0;
      atEnd[open] = -1;
      open++;
      if (open > depthLimit) tooDeep = true;
      expectKey = isObject;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      open--;
      const from = firstKeyOf[open]!;
      // An object's keys leave the list with it.
      if (from !== -1) keys = from;
      manyOf[open] = null;
    } else if (code === COMMA) {
      const top = open - 1;
      expectKey = firstKeyOf[top] !== -1;
      if (!expectKey) atStart[top] = atStart[top]! + 1;
    }
  }
  return tooDeep ? TOO_DEEP : undefined;
}

/** Whether text[aStart..aEnd) and text[bStart..bEnd) are the same characters. */
function sameText(text: string, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  const length = aEnd - aStart;
  if (length !== bEnd - bStart) return false;
  for (let k = 0; k < length; k++) if (text.charCodeAt(aStart + k) !== text.charCodeAt(bStart + k)) return false;
  return true;
}

/**
 * The key at text[start..end) found twice in the innermost of `open` open values (an object), with that
 * object's pointer from scanPositions' stacks (no key on them has an escape).
 */
function repeated(text: string, start: number, end: number, open: number): DuplicateKey {
  const at: Array<string | number> = [];
  for (let depth = 0; depth < open; depth++) at.push(firstKeyOf[depth] === -1 ? atStart[depth]! : text.slice(atStart[depth], atEnd[depth]));
  closeAll(open);
  return { key: text.slice(start, end), pointer: pointerOf(at) };
}

/**
 * The same scan for a text with a key that has an escape: each key decoded (JSON.parse of its
 * quoted text) and kept as a string. Its state in parallel stacks, an object's keys in one shared
 * list until they pass FEW_KEYS, as above.
 */
function scanDecoding(text: string, depthLimit: number): DuplicateKey | typeof TOO_DEEP | undefined {
  // Every key of the objects open now, in one list; for each open value, where its own keys begin
  // in that list (-1 for an array), and where the scan is inside it (an object's current key, an
  // array's current index), for the pointer.
  const seen: string[] = [];
  const firstKey: number[] = [];
  // For each open value: the Set of an object's keys once it has more than FEW_KEYS, else null.
  const many: Array<Set<string> | null> = [];
  const at: Array<string | number> = [];
  let tooDeep = false;
  let expectKey = false;
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
      if (firstKey.length > depthLimit) tooDeep = true;
      expectKey = true;
    } else if (code === OPEN_ARRAY) {
      firstKey.push(-1);
      many.push(null);
      at.push(0);
      if (firstKey.length > depthLimit) tooDeep = true;
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
  return tooDeep ? TOO_DEEP : undefined;
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
