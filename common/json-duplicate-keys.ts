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
 * What the sandbox refuses in a parsed body's text before reading it, found in one pass: the first key
 * an object holds twice (P-HTTP-4; keys compared as decoded text, so "a" and "\u0061" are one key),
 * else TOO_DEEP when objects and arrays nest more than `depthLimit` levels (the root is level 1: the
 * same count as nestedDeeperThan on the parsed value, since a text with no repeated key loses nothing
 * to the parse), else undefined. `text` must be valid JSON. Iterative, so a deep body cannot overflow
 * the stack, and linear in the text's length. It runs on every request the sandbox answers, so a key
 * is compared in place in the text, by its position, and only a key with an escape is decoded: a body
 * with no repeat, no escaped key and no object of more than FEW_KEYS keys (the usual one) allocates
 * nothing here.
 */
export function jsonTextFault(text: string, depthLimit: number): DuplicateKey | typeof TOO_DEEP | undefined {
  const found = scan(text, depthLimit);
  if (firstKeyOf.length > KEPT_STACK || keyStart.length > KEPT_STACK) {
    firstKeyOf = [];
    manyOf = [];
    atStart = [];
    atEnd = [];
    atDecoded = [];
    keyStart = [];
    keyEnd = [];
    keyDecoded = [];
  }
  return found;
}

// The scan's stacks, kept between calls (it is synchronous and calls nothing that could call it
// again), each written by index up to a count of its own and never shortened: once they have grown, a
// scan allocates nothing for them. For each open value: where its keys begin in the key list (-1 for
// an array), the Set of an object's keys once it holds more than FEW_KEYS (else null), and where the
// scan is inside it (an object's current key, an array's current index in `atStart`). For each key of
// the objects open now (the key list): where it starts (after its quote) and ends (at its closing
// quote), and, for a key with an escape, its decoded text (else undefined: the text is the key).
let firstKeyOf: number[] = [];
let manyOf: Array<Set<string> | null> = [];
let atStart: number[] = [];
let atEnd: number[] = [];
let atDecoded: Array<string | undefined> = [];
let keyStart: number[] = [];
let keyEnd: number[] = [];
let keyDecoded: Array<string | undefined> = [];
/**
 * Past this many entries the stacks are let go after the scan, not kept. Only depth grows them: the
 * key list holds at most FEW_KEYS + 1 keys of each open object (the rest are in its Set).
 */
const KEPT_STACK = 1024;

function scan(text: string, depthLimit: number): DuplicateKey | typeof TOO_DEEP | undefined {
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
        const start = i + 1;
        const decoded = backslash < end ? (JSON.parse(text.slice(i, end + 1)) as string) : undefined;
        const top = open - 1;
        const set = manyOf[top];
        if (set != null) {
          const key = decoded ?? text.slice(start, end);
          if (set.has(key)) return repeated(text, key, open);
          set.add(key);
        } else {
          const from = firstKeyOf[top]!;
          for (let k = from; k < keys; k++) {
            const other = keyDecoded[k];
            const same =
              other === undefined && decoded === undefined
                ? sameText(text, keyStart[k]!, keyEnd[k]!, start, end)
                : (other ?? text.slice(keyStart[k], keyEnd[k])) === (decoded ?? text.slice(start, end));
            if (same) return repeated(text, decoded ?? text.slice(start, end), open);
          }
          keyStart[keys] = start;
          keyEnd[keys] = end;
          keyDecoded[keys] = decoded;
          keys++;
          if (keys - from > FEW_KEYS) {
            const held = new Set<string>();
            for (let k = from; k < keys; k++) held.add(keyDecoded[k] ?? text.slice(keyStart[k], keyEnd[k]));
            manyOf[top] = held;
            keys = from;
          }
        }
        atStart[top] = start;
        atEnd[top] = end;
        atDecoded[top] = decoded;
        expectKey = false;
      }
      i = end;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      const isObject = code === OPEN_OBJECT;
      firstKeyOf[open] = isObject ? keys : -1;
      manyOf[open] = null;
      atStart[open] = isObject ? -1 : 0;
      atEnd[open] = -1;
      atDecoded[open] = undefined;
      open++;
      if (open > depthLimit) tooDeep = true;
      expectKey = isObject;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      // (A close with nothing open is no JSON, never seen after a parse: skipped, so no stack is written at -1.)
      if (open === 0) continue;
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
  // (Values left open are no JSON either: their Sets are let go all the same.)
  for (let depth = 0; depth < open; depth++) manyOf[depth] = null;
  return tooDeep ? TOO_DEEP : undefined;
}

/** Keys longer than this are compared by the engine's own string comparison (see sameText). */
const SHORT_KEY = 16;

/**
 * Whether text[aStart..aEnd) and text[bStart..bEnd) are the same characters. Keys of different
 * lengths, or whose first or last characters differ (nearly every pair of the interface's), are told
 * apart at once; short keys then character by character, long ones as two slices compared by the
 * engine, which compares a long run far faster than a loop does (and makes a long slice without
 * copying it): keys made to share all but a middle character cost little more than others.
 */
function sameText(text: string, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  const length = aEnd - aStart;
  if (length !== bEnd - bStart) return false;
  if (length === 0) return true;
  if (text.charCodeAt(aStart) !== text.charCodeAt(bStart) || text.charCodeAt(aEnd - 1) !== text.charCodeAt(bEnd - 1)) return false;
  if (length > SHORT_KEY) return text.slice(aStart, aEnd) === text.slice(bStart, bEnd);
  for (let k = 1; k < length - 1; k++) if (text.charCodeAt(aStart + k) !== text.charCodeAt(bStart + k)) return false;
  return true;
}

/**
 * `key`, found twice in the innermost of `open` open values (an object), with that object's pointer
 * from the scan's stacks; the Sets of the open values are let go (a closed value's already is).
 */
function repeated(text: string, key: string, open: number): DuplicateKey {
  let pointer = '';
  for (let depth = 0; depth < open - 1; depth++) {
    const step = firstKeyOf[depth] === -1 ? String(atStart[depth]) : (atDecoded[depth] ?? text.slice(atStart[depth], atEnd[depth]));
    pointer += `/${step.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  for (let depth = 0; depth < open; depth++) manyOf[depth] = null;
  return { key, pointer };
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
