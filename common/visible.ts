/** Characters that act on a terminal or reorder text instead of showing: C0 and C1 controls, DEL, bidi
 *  controls, U+2028/U+2029 and the byte-order mark. Tab and, where asked, line feed are left alone. */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
const INVISIBLE_OR_NEWLINE = new RegExp(`${INVISIBLE.source.slice(0, -1)}\\n]`, 'g');

/** The escape a character is shown as: \x1b below U+0100, \u202e above. */
export function escapeChar(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** JSON text with every invisible character as a \u escape: the same value, but a viewer shows them. */
export function jsonWithVisibleControls(json: string): string {
  return json.replace(INVISIBLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether a single character is one `visible` escapes (newline aside). */
export function isInvisible(char: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(char);
}

/** Text from a target or a client, safe to show: an answer cannot clear a screen, retitle a window or
 *  reverse a line. Line feeds are escaped too unless `keepNewlines`. */
export function visible(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(options.keepNewlines ? INVISIBLE : INVISIBLE_OR_NEWLINE, escapeChar);
}
