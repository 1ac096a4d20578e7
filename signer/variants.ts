import type { JsonNode } from './json-tree.js';

/** The ways real clients sign something other than the profile's message (P-CLI's list, and a few
 *  more). Ids are a contract: `diagnose --json` reports them. */
export const VARIANTS = {
  canonical: "the profile's canonical text and message (P-SIGN-1/2)",
  'unsorted-keys': 'object keys left in the order they came instead of sorted',
  'shallow-sorted-keys': 'only the top-level keys sorted; nested objects left unsorted',
  'escaped-slashes': '"/" written as "\\/" (PHP\'s json_encode default)',
  'escaped-unicode': "non-ASCII characters written as \\uXXXX escapes (Python's ensure_ascii, PHP)",
  'html-escaped': "<, > and & written as \\u003c, \\u003e, \\u0026 (Go's encoding/json)",
  'escaped-line-terminators':
    "U+2028 and U+2029 written as \\u2028 and \\u2029 (Go's encoding/json always; PHP's json_encode even with JSON_UNESCAPED_UNICODE)",
  'integer-keys-first': 'keys sorted into a new JavaScript object, which lists integer-like keys ("9", "10") first in numeric order',
  'pretty-printed': 'whitespace added between tokens (Python\'s default ", " and ": " separators, or indentation)',
  'trailing-newline': 'a newline appended after the JSON text',
  'number-format': 'numbers written otherwise than JavaScript writes them (e.g. 1499.50, 136.0)',
  'timestamp-milliseconds': 'the timestamp in milliseconds instead of seconds',
  'timestamp-omitted': 'the payload signed without the timestamp',
  'timestamp-fractional': "a fractional timestamp (e.g. Python's time.time()) instead of whole seconds",
  'timestamp-first': 'the timestamp placed before the payload',
  'uppercase-hex': 'the digest written in upper-case hexadecimal',
  base64: 'the digest encoded in base64 instead of hexadecimal',
  'signature-prefix': 'the digest sent with a scheme prefix such as "sha256=" or "v1="',
  'secret-trailing-newline': 'the secret key used with a trailing newline (read from a file or env var)',
  'secret-untrimmed': 'the secret key used with surrounding whitespace, or trimmed where the given one has it',
  'hmac-sha1': 'HMAC-SHA1 instead of HMAC-SHA256',
  'hmac-sha512': 'HMAC-SHA512 instead of HMAC-SHA256',
  'non-canonical-body':
    'the client signed the bytes it sent, but those bytes are not the canonical text (P-SIGN-3): a server that re-canonicalizes refuses it',
  'body-not-canonical':
    'the client signed the canonical text but sent other bytes (P-SIGN-3): a server that verifies the raw body refuses it',
  'timestamp-in-body': 'the timestamp put inside the JSON payload (a "timestamp" or "ts" field) instead of appended to the text',
  'base64-of-hex': 'the digest sent as base64 of its hex text, not as hex',
  'empty-body-signed-as-json': 'a request without a body signed as "{}" instead of "" (P-SIGN-4)',
} as const;

export type VariantId = keyof typeof VARIANTS;

/** How to fix each variant, said to the developer whose client produced it. */
export const FIXES: Partial<Record<VariantId, string>> = {
  'unsorted-keys': 'sort object keys at every depth before serializing',
  'shallow-sorted-keys': 'sort keys recursively, nested objects and objects inside arrays too',
  'escaped-slashes': 'serialize with slashes unescaped (PHP: JSON_UNESCAPED_SLASHES)',
  'escaped-unicode': 'write non-ASCII as raw UTF-8 (Python: ensure_ascii=False; PHP: JSON_UNESCAPED_UNICODE)',
  'html-escaped': 'turn HTML escaping off (Go: json.Encoder with SetEscapeHTML(false))',
  'escaped-line-terminators':
    'write U+2028/U+2029 raw (PHP: add JSON_UNESCAPED_LINE_TERMINATORS; Go: replace the \\u2028 and \\u2029 escapes with the characters after encoding)',
  'integer-keys-first':
    'serialize from sorted key/value pairs, not from an object rebuilt in sorted order (JavaScript objects put integer-like keys first)',
  'pretty-printed': 'serialize compactly (Python: separators=(",", ":"))',
  'trailing-newline': "sign and send the JSON text without the trailing newline (Go's Encoder.Encode adds one)",
  'number-format': "write numbers as JavaScript's JSON.stringify does (1499.5, 136)",
  'timestamp-milliseconds': 'use whole seconds: floor(milliseconds / 1000)',
  'timestamp-omitted': 'sign canonical text + timestamp, not the payload alone',
  'timestamp-first': 'put the timestamp after the payload text, with no separator',
  'timestamp-fractional': 'send and sign whole seconds: floor(time.time())',
  'non-canonical-body': 'serialize the payload canonically (sorted keys, compact), then sign and send those exact bytes',
  'body-not-canonical':
    'send the canonical text you signed, byte for byte, as the body; do not let the HTTP library serialize the payload again',
  'timestamp-in-body': 'leave the payload as it is and sign canonical text + X-TIMESTAMP, appended with no separator',
  'base64-of-hex': 'send the lower-case hex digest itself in X-SIGNATURE',
  'empty-body-signed-as-json': 'sign the empty string followed by the timestamp when there is no body',
  'uppercase-hex': 'hex-encode the digest in lower case',
  base64: 'hex-encode the digest (lower case), not base64',
  'signature-prefix': 'send the bare hex digest in X-SIGNATURE, without a "sha256=" prefix',
  'secret-trailing-newline': 'strip the newline from the secret key where it is loaded',
  'secret-untrimmed': 'use the secret key exactly as issued, without surrounding whitespace',
  'hmac-sha1': 'use HMAC-SHA256',
  'hmac-sha512': 'use HMAC-SHA256',
};

/** The order a sender writes an object's keys in, and the order of the objects inside it, by key. */
export interface FieldOrder {
  keys: readonly string[];
  fields?: Readonly<Record<string, FieldOrder>>;
}

/** The tree with each object's keys in a sender's build order: the keys the order names first, in its
 *  order, then the others in the order they came. */
export function inBuiltOrder(node: JsonNode, order: FieldOrder | undefined): JsonNode {
  if (order === undefined || node.kind !== 'object') return node;
  const rank = (key: string) => {
    const at = order.keys.indexOf(key);
    return at === -1 ? order.keys.length : at;
  };
  // Array.prototype.sort is stable: keys the order does not name keep the order they came in.
  const entries = [...node.entries].sort((a, b) => rank(a[0]) - rank(b[0]));
  return { kind: 'object', entries: entries.map(([key, value]) => [key, inBuiltOrder(value, order.fields?.[key])]) };
}

type KeyOrder = 'sorted' | 'top-level' | 'as-received' | 'integer-keys-first';
type UnicodeEscape = 'raw' | 'lower' | 'upper';
type NumberStyle = 'js' | 'as-received' | 'two-decimals' | 'float-integers';
interface Layout {
  name: string;
  item: string;
  key: string;
  indent: string;
}

const LAYOUTS: readonly Layout[] = [
  { name: 'compact', item: ',', key: ':', indent: '' },
  { name: 'python', item: ', ', key: ': ', indent: '' },
  { name: 'colon-space', item: ',', key: ': ', indent: '' },
  { name: 'indent-2', item: ',', key: ': ', indent: '  ' },
  { name: 'indent-4', item: ',', key: ': ', indent: '    ' },
  { name: 'indent-tab', item: ',', key: ': ', indent: '\t' },
];

export interface TextStyle {
  keyOrder: KeyOrder;
  escapeSlashes: boolean;
  unicode: UnicodeEscape;
  htmlEscape: boolean;
  lineTerminators: boolean;
  numbers: NumberStyle;
  layout: Layout;
  trailingNewline: boolean;
}

export const CANONICAL_STYLE: TextStyle = {
  keyOrder: 'sorted',
  escapeSlashes: false,
  unicode: 'raw',
  htmlEscape: false,
  lineTerminators: false,
  numbers: 'js',
  layout: LAYOUTS[0]!,
  trailingNewline: false,
};

/** The variant ids a text style stands for (empty for the canonical style). */
export function styleVariants(style: TextStyle): VariantId[] {
  const ids: VariantId[] = [];
  if (style.keyOrder === 'as-received') ids.push('unsorted-keys');
  if (style.keyOrder === 'top-level') ids.push('shallow-sorted-keys');
  if (style.keyOrder === 'integer-keys-first') ids.push('integer-keys-first');
  if (style.escapeSlashes) ids.push('escaped-slashes');
  if (style.unicode !== 'raw') ids.push('escaped-unicode');
  if (style.htmlEscape) ids.push('html-escaped');
  if (style.lineTerminators) ids.push('escaped-line-terminators');
  if (style.layout.name !== 'compact') ids.push('pretty-printed');
  if (style.numbers !== 'js') ids.push('number-format');
  if (style.trailingNewline) ids.push('trailing-newline');
  return ids;
}

/** Writes a parsed body in a given style. With CANONICAL_STYLE this is P-SIGN-1's canonical text. */
export function writeStyled(root: JsonNode, style: TextStyle): string {
  const text = writeNode(root, style, 0, '');
  return style.trailingNewline ? text + '\n' : text;
}

const AMOUNT_KEY = /amount|price|total|balance/i;

function writeNode(node: JsonNode, style: TextStyle, depth: number, key: string): string {
  switch (node.kind) {
    case 'string':
      return writeString(node.value, style);
    case 'literal':
      return node.text;
    case 'number':
      return writeNumber(node, style, key);
    case 'array': {
      const parts = node.items.map((item) => writeNode(item, style, depth + 1, key));
      return wrap('[', ']', parts, style.layout, depth);
    }
    case 'object': {
      const sort =
        style.keyOrder === 'sorted' || style.keyOrder === 'integer-keys-first' || (style.keyOrder === 'top-level' && depth === 0);
      // UTF-16 code unit order, as Array.prototype.sort compares strings.
      let entries = sort ? [...node.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : node.entries;
      if (style.keyOrder === 'integer-keys-first') entries = integerKeysFirst(entries);
      const parts = entries.map(([name, value]) => writeString(name, style) + style.layout.key + writeNode(value, style, depth + 1, name));
      return wrap('{', '}', parts, style.layout, depth);
    }
  }
}

/** A JavaScript object's own key order: array-index keys first, ascending by value, then the rest as inserted. */
function integerKeysFirst(entries: Array<[string, JsonNode]>): Array<[string, JsonNode]> {
  const indexes = entries.filter(([key]) => isArrayIndex(key)).sort((a, b) => Number(a[0]) - Number(b[0]));
  return [...indexes, ...entries.filter(([key]) => !isArrayIndex(key))];
}

/** A key JavaScript enumerates before the others: the canonical text of an integer below 2^32 - 1. */
function isArrayIndex(key: string): boolean {
  return /^(0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4_294_967_295;
}

function wrap(open: string, close: string, parts: string[], layout: Layout, depth: number): string {
  if (parts.length === 0) return open + close;
  if (layout.indent === '') return open + parts.join(layout.item) + close;
  const inner = '\n' + layout.indent.repeat(depth + 1);
  return open + inner + parts.join(layout.item + inner) + '\n' + layout.indent.repeat(depth) + close;
}

function writeNumber(node: { text: string; value: number }, style: TextStyle, key: string): string {
  const js = Number.isFinite(node.value) ? String(node.value) : node.text;
  switch (style.numbers) {
    case 'js':
      return js;
    case 'as-received':
      return node.text;
    case 'two-decimals':
      return AMOUNT_KEY.test(key) ? node.value.toFixed(2) : js;
    case 'float-integers':
      return AMOUNT_KEY.test(key) && Number.isInteger(node.value) && !js.includes('e') ? js + '.0' : js;
  }
}

function writeString(value: string, style: TextStyle): string {
  const hex = (ch: string) => ch.charCodeAt(0).toString(16).padStart(4, '0');
  let text = JSON.stringify(value);
  if (style.escapeSlashes) text = text.replaceAll('/', '\\/');
  if (style.htmlEscape) text = text.replace(/[<>&]/g, (ch) => `\\u${hex(ch)}`);
  if (style.lineTerminators) text = text.replace(/[\u2028\u2029]/g, (ch) => `\\u${hex(ch)}`);
  if (style.unicode !== 'raw')
    text = text.replace(/[^\x00-\x7f]/g, (ch) => `\\u${style.unicode === 'upper' ? hex(ch).toUpperCase() : hex(ch)}`);
  return text;
}

/** Every text style worth trying for this body; styles that cannot change the text are skipped. */
export function candidateStyles(root: JsonNode): TextStyle[] {
  const features = scan(root);
  // Integer-like keys first is the more specific story when it writes the same text as another order.
  const keyOrders: KeyOrder[] = [
    'sorted',
    ...(features.integerKeys ? (['integer-keys-first'] as const) : []),
    ...(features.objects ? (['top-level', 'as-received'] as const) : []),
  ];
  const slashes = features.slash ? [false, true] : [false];
  const unicodes: UnicodeEscape[] = features.nonAscii ? ['raw', 'lower', 'upper'] : ['raw'];
  const html = features.html ? [false, true] : [false];
  const terminators = features.lineTerminators ? [false, true] : [false];
  const numberStyles: NumberStyle[] = ['js'];
  if (features.numberTextDiffers) numberStyles.push('as-received');
  if (features.amounts) numberStyles.push('two-decimals', 'float-integers');
  const layouts = features.containers ? LAYOUTS : [LAYOUTS[0]!];

  const styles: TextStyle[] = [];
  for (const keyOrder of keyOrders)
    for (const escapeSlashes of slashes)
      for (const unicode of unicodes)
        for (const htmlEscape of html)
          for (const lineTerminators of terminators)
            for (const numbers of numberStyles)
              for (const layout of layouts)
                for (const trailingNewline of [false, true])
                  styles.push({ keyOrder, escapeSlashes, unicode, htmlEscape, lineTerminators, numbers, layout, trailingNewline });
  return styles;
}

/** What the body holds that decides which styles can change its text. */
function scan(root: JsonNode) {
  const f = {
    objects: false,
    containers: false,
    slash: false,
    nonAscii: false,
    html: false,
    lineTerminators: false,
    integerKeys: false,
    amounts: false,
    numberTextDiffers: false,
  };
  const visitString = (s: string): void => {
    if (s.includes('/')) f.slash = true;
    if (/[^\x00-\x7f]/.test(s)) f.nonAscii = true;
    if (/[<>&]/.test(s)) f.html = true;
    if (/[\u2028\u2029]/.test(s)) f.lineTerminators = true;
  };
  const visit = (node: JsonNode, key: string): void => {
    if (node.kind === 'string') visitString(node.value);
    else if (node.kind === 'number') {
      if (AMOUNT_KEY.test(key)) f.amounts = true;
      if (node.text !== String(node.value)) f.numberTextDiffers = true;
    } else if (node.kind === 'array') {
      f.containers = true;
      node.items.forEach((item) => visit(item, key));
    } else if (node.kind === 'object') {
      f.containers = true;
      if (node.entries.length > 1) f.objects = true;
      for (const [name, value] of node.entries) {
        visitString(name);
        if (isArrayIndex(name)) f.integerKeys = true;
        visit(value, name);
      }
    }
  };
  visit(root, '');
  return f;
}
