// Splits a shell command line into words as bash would, expanding nothing (a capture is read, never
// evaluated), and stops at an unquoted `|`, `;` or `&` (a trailing `| jq .` adds no arguments).

export class ShellWordsError extends Error {
  override readonly name = 'ShellWordsError';
  readonly code = 'SVC_SHELL_WORDS_UNTERMINATED';
}

const CONTROL_OPERATORS = new Set(['|', ';', '&']);

export function splitShellWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false; // distinguishes an empty quoted word ('') from no word at all
  let i = 0;

  const endWord = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };

  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      endWord();
      i += 1;
    } else if (CONTROL_OPERATORS.has(ch)) {
      break;
    } else if (ch === '\\') {
      const skip = lineContinuationLength(text, i + 1);
      if (skip > 0) {
        i += 1 + skip; // backslash-newline joins lines and produces nothing
      } else {
        if (i + 1 < text.length) word += text[i + 1];
        inWord = true;
        i += 2;
      }
    } else {
      const [part, next] = readPart(text, i);
      word += part;
      inWord = true;
      i = next;
    }
  }
  endWord();
  return words;
}

/** The text of the word part starting at `at` (a quoted string, or one character), and the index after it. */
function readPart(text: string, at: number): [string, number] {
  const ch = text[at];
  if (ch === "'") {
    const end = text.indexOf("'", at + 1);
    if (end < 0) throw unterminated('single', text, at);
    return [text.slice(at + 1, end), end + 1];
  }
  if (ch === '"') return readDoubleQuoted(text, at);
  if (ch === '$' && text[at + 1] === "'") return readAnsiC(text, at);
  // $"..." is a locale-translated string; untranslated it is an ordinary double-quoted one.
  if (ch === '$' && text[at + 1] === '"') return readDoubleQuoted(text, at + 1);
  return [ch!, at + 1];
}

/** Length of a newline (LF or CRLF) starting at `at`, or 0. */
function lineContinuationLength(text: string, at: number): number {
  if (text[at] === '\n') return 1;
  if (text[at] === '\r' && text[at + 1] === '\n') return 2;
  return 0;
}

/** Reads "..." starting at the opening quote; returns the value and the index after the closing quote. */
function readDoubleQuoted(text: string, open: number): [string, number] {
  let value = '';
  let i = open + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') return [value, i + 1];
    if (ch === '\\') {
      const skip = lineContinuationLength(text, i + 1);
      const next = text[i + 1];
      if (skip > 0) {
        i += 1 + skip;
        continue;
      }
      // Inside double quotes a backslash only escapes these; before anything else it stays literal.
      if (next === '"' || next === '\\' || next === '$' || next === '`') {
        value += next;
        i += 2;
        continue;
      }
    }
    value += ch;
    i += 1;
  }
  throw unterminated('double', text, open);
}

/** The one-letter escapes of $'...'; a backslash, quote or question mark after one stands for itself. */
const ANSI_C_SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };

const ANSI_C_ITSELF = new Set(['\\', "'", '"', '?']);

/** Reads $'...' starting at the `$`; returns the value and the index after the closing quote. */
function readAnsiC(text: string, dollar: number): [string, number] {
  let value = '';
  let i = dollar + 2;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'") return [value, i + 1];
    if (ch !== '\\' || i + 1 >= text.length) {
      value += ch;
      i += 1;
      continue;
    }
    const esc = text[i + 1]!;
    const simple = ANSI_C_ITSELF.has(esc) ? esc : ANSI_C_SIMPLE[esc];
    if (simple !== undefined) {
      value += simple;
      i += 2;
    } else if (esc === 'x' || esc === 'u' || esc === 'U') {
      const maxDigits = esc === 'x' ? 2 : esc === 'u' ? 4 : 8;
      const digits = /^[0-9a-fA-F]+/.exec(text.slice(i + 2, i + 2 + maxDigits))?.[0] ?? '';
      if (digits === '') {
        value += '\\' + esc; // bash keeps an escape with no digits as written
      } else {
        const code = Number.parseInt(digits, 16);
        value += code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      }
      i += 2 + digits.length;
    } else if (/[0-7]/.test(esc)) {
      const digits = /^[0-7]{1,3}/.exec(text.slice(i + 1))![0];
      value += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
      i += 1 + digits.length;
    } else {
      value += '\\' + esc;
      i += 2;
    }
  }
  throw unterminated("ANSI-C ($'...')", text, dollar);
}

function unterminated(kind: string, text: string, at: number): ShellWordsError {
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  const excerpt = text.slice(at, at + 30).replace(/\r?\n/g, '\\n');
  return new ShellWordsError(
    `unterminated ${kind} quote starting at line ${line}, column ${column} (${JSON.stringify(excerpt)}…); ` +
      'the command was probably cut off when copied: paste it whole',
  );
}
