// One-defect mutations of a valid request (P-ERR-4). Each mutation changes only what its label says:
// one field removed, nulled or replaced, or the whole body replaced by non-object or non-JSON text.
import { fc } from '../../common/fast-check.js';
import { getPath, withPath } from '../../core/predicates.js';
import { canonicalize } from '../../signer/canonical.js';
import { requiredFields, type SchemaNode } from '../../schemas/field-order.js';
import type { SchemaId } from '../../schemas/index.js';
import { CURRENCIES } from '../../schemas/types.js';
import { BAD_REQUEST, BAD_REQUEST_OR_UNPROCESSABLE, DEFECT_KINDS, type DefectKind, type InvalidRequest } from '../invalidRequest.js';
import { checkList, GeneratorConstraintError } from './constraints.js';
import { alphanumericString } from './seededFaker.js';

type FieldKind = 'string' | 'object' | 'id' | 'amount' | 'currency' | 'transfer-mode';

/** What the mutations need to know about one request kind. */
export interface RequestShape {
  /** The request's schema: its required fields are the ones removed, nulled or mistyped. */
  readonly schema: SchemaId;
  readonly amountField?: string;
  readonly currencyField?: string;
  readonly transferModeField?: string;
}

/** The kind of a required field, which decides its wrong-type replacements. */
function kindOf(shape: RequestShape, path: string, schema: SchemaNode): FieldKind {
  if (path === shape.amountField) return 'amount';
  if (path === shape.currencyField) return 'currency';
  if (path === shape.transferModeField) return 'transfer-mode';
  if (schema.type === 'object') return 'object';
  // order_id and payout_order_id: an integer or a string
  return schema.anyOf?.some((s) => s.type === 'integer') ? 'id' : 'string';
}

interface Replacement {
  readonly value: unknown;
  readonly label: string;
}

function field(defect: DefectKind, path: string, description: string, value: unknown, lenient: boolean): InvalidRequest {
  return {
    defect,
    field: path,
    description,
    expectedStatuses: lenient ? BAD_REQUEST_OR_UNPROCESSABLE : BAD_REQUEST,
    body: { kind: 'json', value },
  };
}

function whole(defect: DefectKind, description: string, body: InvalidRequest['body']): InvalidRequest {
  return { defect, description, expectedStatuses: BAD_REQUEST, body };
}

/** What a field of each kind should be, in words. */
const EXPECTED: Readonly<Record<FieldKind, string>> = {
  string: 'a string',
  object: 'an object',
  id: 'an integer or a string',
  amount: 'a number or a decimal string',
  currency: 'a currency code',
  'transfer-mode': 'a transfer mode',
};

const ISO_NUMERIC: Readonly<Record<string, number>> = { INR: 356, USD: 840, EUR: 978, GBP: 826, JPY: 392 };

/** Values of another JSON type than the field's; never a numeric string for an amount, which P-AMOUNT-1 allows. */
function wrongTypes(kind: FieldKind, current: unknown): readonly Replacement[] {
  const asArray = { value: [current], label: 'an array' };
  const asBoolean = { value: true, label: 'a boolean' };
  switch (kind) {
    case 'string': {
      const text = String(current);
      const asNumber = /^\+?\d{1,15}$/.test(text) ? Number(text.replace('+', '')) : text.length;
      return [{ value: asNumber, label: 'a number' }, asBoolean, asArray, { value: { value: current }, label: 'an object' }];
    }
    case 'object':
      return [{ value: canonicalize(current), label: 'a string' }, asArray, { value: 1, label: 'a number' }, asBoolean];
    case 'id':
    case 'amount':
      return [asBoolean, { value: { value: current }, label: 'an object' }, asArray];
    case 'currency':
      return [{ value: ISO_NUMERIC[String(current)] ?? 999, label: 'a number (ISO 4217 numeric code)' }, asBoolean, asArray];
    case 'transfer-mode':
      return [{ value: 1, label: 'a number' }, asBoolean, asArray];
  }
}

/** Amounts P-AMOUNT-1 does not allow: text that is not a plain positive decimal, zero and negatives. */
function badAmounts(current: number): readonly Replacement[] {
  return [
    { value: 'abc', label: 'the non-numeric text "abc"' },
    { value: 'ten', label: 'the non-numeric text "ten"' },
    { value: '', label: 'empty text' },
    { value: 'NaN', label: 'the text "NaN"' },
    { value: 'Infinity', label: 'the text "Infinity"' },
    { value: '-Infinity', label: 'the text "-Infinity"' },
    { value: '-5', label: 'the negative text "-5"' },
    { value: `-${current}`, label: `the negative text "-${current}"` },
    { value: '0', label: 'the zero text "0"' },
    { value: '0.00', label: 'the zero text "0.00"' },
    { value: '1e3', label: 'the exponent text "1e3"' },
    { value: '1,000.00', label: 'the text "1,000.00" with a thousands separator' },
    { value: '150,50', label: 'the text "150,50" with a decimal comma' },
    { value: ` ${current}`, label: 'the amount as text with a leading space' },
    { value: `+${current}`, label: 'the amount as text with a plus sign' },
    { value: '.5', label: 'the text ".5" without a whole part' },
    { value: '150.', label: 'the text "150." without decimals after the point' },
    { value: '0x10', label: 'the hexadecimal text "0x10"' },
    { value: '\u0661\u0665\u0660', label: 'the amount in Arabic-Indic digits' },
    { value: 0, label: 'zero' },
    { value: -current, label: `negative (${-current})` },
    { value: -0.01, label: 'negative (-0.01)' },
  ];
}

/** Real ISO 4217 codes that the interface's table does not list. */
const CURRENCIES_OUTSIDE_TABLE = ['RUB', 'ARS', 'EGP', 'NGN', 'PKR', 'VND', 'BDT', 'KES', 'UAH', 'CLP', 'COP', 'LKR'] as const;

// Codes outside the table: those listed, and three letters that are not one of its codes. Built at
// first use, not at import, since fast-check loads at its first use.
let outsideTable: readonly [fc.Arbitrary<string>, fc.Arbitrary<string>] | undefined;

function unknownCurrencies(current: string): fc.Arbitrary<string> {
  outsideTable ??= [
    fc.constantFrom(...CURRENCIES_OUTSIDE_TABLE),
    alphanumericString(3, 3, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ').filter((code) => !(CURRENCIES as readonly string[]).includes(code)),
  ];
  // the table lists upper-case codes, so 'inr' is not one of them
  return fc.oneof(fc.constant(current.toLowerCase()), ...outsideTable);
}

const MODES_OUTSIDE_TABLE = ['paypal', 'card', 'crypto', 'bank_transfer', 'cheque', 'upi_collect', 'faster_payments', 'fedwire'] as const;

function unknownTransferModes(current: string): fc.Arbitrary<string> {
  // the table lists lower-case values, so 'IMPS' is not one of them
  return fc.oneof(fc.constant(current.toUpperCase()), fc.constantFrom(...MODES_OUTSIDE_TABLE));
}

const MARKER = 'SVC_CONFORMANCE_LITERAL_MARKER';

/** Text that is almost the canonical JSON of `value` but does not parse. */
function invalidJsonTexts(value: object, shape: RequestShape): fc.Arbitrary<{ text: string; how: string }> {
  const text = canonicalize(value);
  const firstKey = Object.keys(value).sort()[0] ?? '';
  const literalAt = shape.amountField ?? requiredFields(shape.schema)[0]?.path ?? firstKey;
  const literal = shape.amountField === undefined ? 'undefined' : 'NaN';
  const truncated = fc.integer({ min: 1, max: text.length - 1 }).map((cut) => {
    // never split a surrogate pair: the text must stay well-formed UTF-16
    const at = /[\uD800-\uDBFF]/.test(text.charAt(cut - 1)) ? cut - 1 : cut;
    return { text: text.slice(0, at), how: `truncated after ${at} of ${text.length} characters` };
  });
  return fc.oneof(
    truncated,
    fc.constant({ text: `${text.slice(0, -1)},}`, how: 'a trailing comma after the last member' }),
    fc.constant({ text: text.replaceAll('"', "'"), how: 'single quotes instead of double quotes' }),
    fc.constant({ text: `{${firstKey}${text.slice(firstKey.length + 3)}`, how: `the key ${firstKey} unquoted` }),
    fc.constant({
      text: canonicalize(withPath(value, literalAt, MARKER)).replace(`"${MARKER}"`, literal),
      how: `the bare literal ${literal} as ${literalAt}`,
    }),
    fc.constant({ text: `{/* retry */${text.slice(1)}`, how: 'a comment' }),
  );
}

/** The mutations of one defect kind applied to `valid`. */
function mutationsOf(valid: object, shape: RequestShape, defect: DefectKind): fc.Arbitrary<InvalidRequest> {
  const fields = requiredFields(shape.schema);
  const lenientField = (path: string) => path === shape.amountField || path === shape.currencyField;
  switch (defect) {
    case 'missing-field':
      return fc
        .constantFrom(...fields)
        .map(({ path }) => field(defect, path, `required field ${path} is missing`, withPath(valid, path, undefined), false));
    case 'null-field':
      return fc
        .constantFrom(...fields)
        .map(({ path }) => field(defect, path, `required field ${path} is null`, withPath(valid, path, null), lenientField(path)));
    case 'wrong-type':
      return fc.constantFrom(...fields).chain(({ path, schema }) => {
        const kind = kindOf(shape, path, schema);
        return fc
          .constantFrom(...wrongTypes(kind, getPath(valid, path)))
          .map(({ value, label }) =>
            field(defect, path, `field ${path} is ${label} instead of ${EXPECTED[kind]}`, withPath(valid, path, value), lenientField(path)),
          );
      });
    case 'bad-amount': {
      const path = required(shape.amountField, defect);
      // a valid amount of either form reads as a number: 150, "150.00"
      return fc
        .constantFrom(...badAmounts(Number(getPath(valid, path))))
        .map(({ value, label }) => field(defect, path, `${path} is ${label}`, withPath(valid, path, value), true));
    }
    case 'unknown-currency': {
      const path = required(shape.currencyField, defect);
      return unknownCurrencies(String(getPath(valid, path))).map((code) =>
        field(defect, path, `${path} "${code}" is not in the interface's currency table`, withPath(valid, path, code), true),
      );
    }
    case 'unknown-transfer-mode': {
      const path = required(shape.transferModeField, defect);
      return unknownTransferModes(String(getPath(valid, path))).map((mode) =>
        field(defect, path, `${path} "${mode}" is not in the interface's transfer mode table`, withPath(valid, path, mode), false),
      );
    }
    case 'invalid-json':
      return invalidJsonTexts(valid, shape).map(({ text, how }) => whole(defect, `body is not valid JSON: ${how}`, { kind: 'text', text }));
    case 'empty-body':
      return fc.constant(whole(defect, 'body is empty', { kind: 'text', text: '' }));
    case 'top-level-array':
      return fc.constantFrom(
        whole(defect, 'body is a JSON array holding the request, not an object', { kind: 'json', value: [valid] }),
        whole(defect, 'body is an empty JSON array, not an object', { kind: 'json', value: [] }),
      );
    case 'top-level-scalar':
      return fc.constantFrom(
        whole(defect, 'body is a JSON string holding the encoded request (double-encoded), not an object', {
          kind: 'json',
          value: canonicalize(valid),
        }),
        whole(defect, 'body is the number 1, not an object', { kind: 'json', value: 1 }),
        whole(defect, 'body is true, not an object', { kind: 'json', value: true }),
        whole(defect, 'body is null, not an object', { kind: 'json', value: null }),
      );
  }
}

function required(path: string | undefined, defect: DefectKind): string {
  if (path === undefined) throw new Error(`generators: defect '${defect}' does not apply to this request kind`);
  return path;
}

/** One defect, drawn from `defects`, applied to `valid`. */
export function invalidVariantsOf(valid: object, shape: RequestShape, defects: readonly DefectKind[]): fc.Arbitrary<InvalidRequest> {
  return fc.constantFrom(...defects).chain((defect) => mutationsOf(valid, shape, defect));
}

/** The defect kinds that apply to a request kind. */
export function applicableDefects(shape: RequestShape): readonly DefectKind[] {
  return DEFECT_KINDS.filter(
    (defect) =>
      (defect !== 'bad-amount' || shape.amountField !== undefined) &&
      (defect !== 'unknown-currency' || shape.currencyField !== undefined) &&
      (defect !== 'unknown-transfer-mode' || shape.transferModeField !== undefined),
  );
}

/** Checks a `defects` constraint against the kinds that apply; default: all of them. */
export function checkDefects(api: string, value: readonly unknown[] | undefined, applicable: readonly DefectKind[]): readonly DefectKind[] {
  if (value === undefined) return applicable;
  return checkList(api, 'defects', value, 'defect kinds', (defect) => {
    if (!(applicable as readonly unknown[]).includes(defect))
      throw new GeneratorConstraintError(api, `defects contains ${JSON.stringify(defect)}, which is not one of ${applicable.join(', ')}`);
  });
}
