import type { JsonNode } from './json-tree.js';
import { CANONICAL_STYLE, candidateStyles, inBuiltOrder, styleVariants, writeStyled, type FieldOrder, type VariantId } from './variants.js';

/** A text the client may have signed, and whether it is the payload with the timestamp put inside. */
export interface SignedText {
  text: string;
  labels: VariantId[];
  withTimestamp?: boolean;
}

/** Field names clients use for a timestamp they put inside the payload. */
const TIMESTAMP_FIELDS = ['timestamp', 'ts'] as const;

/** Every text the client may have signed for this body, fewest variants first. */
export function candidateTexts(
  body: string,
  parsed: { canonical: string; tree?: JsonNode },
  timestamp: string,
  builtOrder?: FieldOrder,
): SignedText[] {
  const byText = new Map<string, VariantId[]>();
  const add = (text: string, labels: VariantId[]): void => {
    const known = byText.get(text);
    if (known === undefined || labels.length < known.length) byText.set(text, labels);
  };
  add(parsed.canonical, []);
  if (parsed.tree === undefined) {
    if (body === '') add('{}', ['empty-body-signed-as-json']);
    add(parsed.canonical + '\n', ['trailing-newline']);
  } else {
    for (const style of candidateStyles(parsed.tree)) add(writeStyled(parsed.tree, style), styleVariants(style));
    if (builtOrder !== undefined) {
      // The keys in the order the sender built them, instead of the order they came: only the
      // styles that keep an object's order can tell it apart.
      const built = inBuiltOrder(parsed.tree, builtOrder);
      for (const style of candidateStyles(built))
        if (style.keyOrder === 'as-received' || style.keyOrder === 'top-level') add(writeStyled(built, style), styleVariants(style));
    }
    // The exact bytes sent, whatever serializer made them (P-SIGN-3 wants the canonical text).
    if (!byText.has(body)) add(body, ['non-canonical-body']);
  }
  const texts: SignedText[] = [...byText].map(([text, labels]) => ({ text, labels }));
  // The timestamp added to the payload for signing only: the body sent does not carry it.
  if (parsed.tree?.kind === 'object' && timestampField(parsed.tree, timestamp) === undefined && /^\d{1,13}$/.test(timestamp)) {
    for (const name of TIMESTAMP_FIELDS) {
      for (const value of [
        { kind: 'number', text: timestamp, value: Number(timestamp) } as const,
        { kind: 'string', value: timestamp } as const,
      ]) {
        const tree: JsonNode = { kind: 'object', entries: [...parsed.tree.entries, [name, value]] };
        texts.push({ text: writeStyled(tree, CANONICAL_STYLE), labels: ['timestamp-in-body'], withTimestamp: true });
      }
    }
  }
  return texts.sort((a, b) => a.labels.length - b.labels.length);
}

/** The name of a top-level field of the body that holds the timestamp as sent, if there is one. */
export function timestampField(tree: JsonNode | undefined, timestamp: string): string | undefined {
  if (tree?.kind !== 'object') return undefined;
  const hit = tree.entries.find(
    ([name, value]) =>
      (TIMESTAMP_FIELDS as readonly string[]).includes(name) &&
      ((value.kind === 'number' && value.text === timestamp) || (value.kind === 'string' && value.value === timestamp)),
  );
  return hit?.[0];
}
