// P-HTTP-4: a body in which an object repeats a key. JSON.parse keeps the last value silently, while a
// signature check (or a proxy, or a second parser) may have read the first: two readers, two requests.

/** Where a key repeats: the key as decoded, and the JSON Pointer of the object that holds it twice. */
export interface DuplicateKey {
  key: string;
  pointer: string;
}

/** What `jsonTextFault` says of a body nested deeper than its limit. */
export const TOO_DEEP = 'too-deep';

/** An object or array open at this point of the scan: an object's keys so far, and where the scan is in it. */
interface Open {
  keys: Set<string> | undefined;
  step: string | number;
}

/** A valid JSON text's first repeated key (decoded: "a" and "\u0061" are one), else TOO_DEEP past
 *  `depthLimit` levels (the root is 1). A loop, not recursion: a deep body must not overflow the stack. */
export function jsonTextFault(text: string, depthLimit: number): DuplicateKey | typeof TOO_DEEP | undefined {
  const open: Open[] = [];
  let tooDeep = false;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    const top = open.at(-1);
    if (char === '"') {
      const end = stringEnd(text, i);
      if (expectKey && top?.keys !== undefined && end < text.length) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return { key, pointer: pointerOf(open.slice(0, -1)) };
        top.keys.add(key);
        top.step = key;
        expectKey = false;
      }
      i = end;
    } else if (char === '{' || char === '[') {
      open.push({ keys: char === '{' ? new Set() : undefined, step: 0 });
      if (open.length > depthLimit) tooDeep = true;
      expectKey = char === '{';
    } else if (char === '}' || char === ']') {
      open.pop();
      expectKey = false;
    } else if (char === ',' && top !== undefined) {
      if (top.keys !== undefined) expectKey = true;
      else top.step = Number(top.step) + 1;
    }
  }
  return tooDeep ? TOO_DEEP : undefined;
}

/** The index of the quote that closes the string opened at `start` (the text's length if none does). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i, text.length);
}

function pointerOf(path: readonly Open[]): string {
  return path.map(({ step }) => `/${String(step).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
