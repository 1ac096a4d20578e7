// The deterministic edge set (P-ERR-3, P-AMOUNT-4, P-DUP-5): inputs that break servers, tried on every
// run whatever the seed, so a run that passed with seed 1 cannot fail with seed 2.
import type { Currency, MerchantOrderId, RequestAmount } from '../schemas/types.js';

/** An amount as a request carries it, with how it is spelled in the JSON text. */
export interface AmountEdge {
  label: string;
  class: 'zero' | 'exact' | 'large';
  amount: RequestAmount;
  /** The amount as it would be written in the JSON text (for numbers the canonical text may differ: 0.00 is sent as 0, P-SIGN-1). */
  spelled: string;
  currency: Currency;
}

/** What an identifier edge is built from: this run's own ids, so no other run's order can collide. */
export interface IdentifierBase {
  /** A fresh text id of this run, e.g. "ORD-…". */
  text: string;
  /** A fresh integer id of this run. */
  integer: number;
}

/** Identifiers that stress exact comparison: one id, or two that must stay two distinct orders. */
export interface IdentifierEdge {
  label: string;
  class: 'long' | 'case' | 'leading-zeros' | 'integer' | 'trailing-space';
  ids(base: IdentifierBase): readonly MerchantOrderId[];
}

/** A text a customer or a merchant may write into a name, a note or an address. */
export interface TextEdge {
  label: string;
  class: 'astral' | 'line-separators' | 'bidi' | 'html' | 'long-name';
  text: string;
}

export interface EdgeSet {
  amounts: readonly AmountEdge[];
  identifiers: readonly IdentifierEdge[];
  texts: readonly TextEdge[];
}

/** Both JSON forms of one amount (P-AMOUNT-1): a number and a decimal string with the currency's decimals. */
function bothForms(cls: AmountEdge['class'], text: string, currency: Currency, why: string): AmountEdge[] {
  return [
    { label: `${text} ${currency} as a number (${why})`, class: cls, amount: Number(text), spelled: text, currency },
    { label: `"${text}" ${currency} as a string (${why})`, class: cls, amount: text, spelled: JSON.stringify(text), currency },
  ];
}

const ZERO: readonly AmountEdge[] = [
  { label: 'zero as the number 0', class: 'zero', amount: 0, spelled: '0', currency: 'INR' },
  { label: 'zero as the number 0.0 (sent as 0: canonical JSON)', class: 'zero', amount: 0.0, spelled: '0.0', currency: 'INR' },
  { label: 'zero as the number 0.00 (sent as 0: canonical JSON)', class: 'zero', amount: 0.0, spelled: '0.00', currency: 'INR' },
  { label: 'zero as the string "0"', class: 'zero', amount: '0', spelled: '"0"', currency: 'INR' },
  { label: 'zero as the string "0.00"', class: 'zero', amount: '0.00', spelled: '"0.00"', currency: 'INR' },
  { label: 'negative zero as the string "-0.00"', class: 'zero', amount: '-0.00', spelled: '"-0.00"', currency: 'INR' },
];

/** Exact minor-unit values in 0-, 2- and 3-decimal currencies, several of them binary-float traps
 *  (0.07 × 100 is 7.000000000000001, 1.005 × 1000 is 1004.9999999999999; a 4-byte float keeps 16777216). */
const EXACT: readonly AmountEdge[] = [
  ...bothForms('exact', '1', 'JPY', 'one minor unit, 0 decimals'),
  ...bothForms('exact', '1234', 'KRW', '0 decimals'),
  ...bothForms('exact', '16777217', 'JPY', '2^24 + 1, the first whole number a single-precision float cannot hold'),
  ...bothForms('exact', '0.01', 'INR', 'one minor unit'),
  ...bothForms('exact', '0.07', 'USD', 'a float trap'),
  ...bothForms('exact', '1499.99', 'EUR', 'a float trap'),
  ...bothForms('exact', '0.001', 'KWD', 'one minor unit, 3 decimals'),
  ...bothForms('exact', '1.005', 'BHD', 'a float trap, 3 decimals'),
  ...bothForms('exact', '123.457', 'OMR', '3 decimals'),
];

/** The largest amounts, and values around 2^31 and 2^32 minor units (where 32-bit integers wrap). */
const LARGE: readonly AmountEdge[] = [
  ...bothForms('large', '99999999.99', 'INR', 'the largest amount of P-ERR-3'),
  ...bothForms('large', '21474836.47', 'INR', '2^31 - 1 minor units'),
  ...bothForms('large', '21474836.48', 'INR', '2^31 minor units'),
  ...bothForms('large', '42949672.96', 'INR', '2^32 minor units'),
];

/** Long id lengths, each just past a common column width (VARCHAR(64), (255), (1024)), where a cut shows. */
const LONG_ID_LENGTHS = [65, 256, 1025] as const;

/** This run's id padded to exactly `length` characters (ASCII, so characters and bytes agree). */
function longId(text: string, length: number): string {
  if (text.length + 1 >= length)
    throw new Error(`edgeSet: the base id ${JSON.stringify(text)} is too long for a long id of ${length} characters`);
  return `${text}-${'L0ng'.repeat(Math.ceil(length / 4))}`.slice(0, length);
}

const IDENTIFIERS: readonly IdentifierEdge[] = [
  {
    label: `ids of ${LONG_ID_LENGTHS.join(', ')} characters (past VARCHAR(64), VARCHAR(255) and VARCHAR(1024))`,
    class: 'long',
    ids: (base) => LONG_ID_LENGTHS.map((length) => longId(base.text, length)),
  },
  {
    label: 'case variants "AbC…" and "abc…": two distinct ids',
    class: 'case',
    ids: (base) => [`AbC-${base.text}`, `abc-${base.text}`.toLowerCase()],
  },
  { label: 'a numeric-looking string with leading zeros', class: 'leading-zeros', ids: (base) => [`000${base.integer}`] },
  { label: 'an integer order_id', class: 'integer', ids: (base) => [base.integer] },
  { label: 'ids differing only by a trailing space', class: 'trailing-space', ids: (base) => [`${base.text}-TS`, `${base.text}-TS `] },
];

const TEXTS: readonly TextEdge[] = [
  { label: 'characters outside the BMP (emoji, mathematical script)', class: 'astral', text: 'Ana 🌸 Silva 𝒜𝓃𝒶 👩🏽‍💻' },
  { label: 'U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR', class: 'line-separators', text: 'Flat 4\u2028Block B\u2029Rear' },
  { label: 'bidi controls U+202E and U+2066…U+2069', class: 'bidi', text: 'Noor \u202Eاحمد\u202C \u2066Khan\u2069' },
  { label: 'HTML characters < > & " \'', class: 'html', text: '<b>O\'Brien & "Sons"</b> <script>x</script>' },
  {
    label: 'a name of several hundred characters',
    class: 'long-name',
    text: Array.from({ length: 40 }, (_, i) => `Name${i}`)
      .join(' ')
      .padEnd(400, ' Long')
      .trim(),
  },
];

/** The edge set: a constant, since every run tries every edge; amounts in each currency's decimals (P-AMOUNT-2). */
export function edgeSet(): EdgeSet {
  return { amounts: [...ZERO, ...EXACT, ...LARGE], identifiers: IDENTIFIERS, texts: TEXTS };
}
