import { canonicalize } from './canonical.js';
import { SignerError } from './errors.js';
import { HmacKey, type HmacAlgorithm } from './hmac.js';
import { parseJsonTree, type JsonNode } from './json-tree.js';
import { CANONICAL_STYLE, candidateStyles, inBuiltOrder, styleVariants, writeStyled, type FieldOrder, type VariantId } from './variants.js';

export interface DiagnoseInput {
  /** The body as the client sent it ("" for a request without a body). */
  body: string;
  /** X-TIMESTAMP as sent. */
  timestamp: string;
  /** X-SIGNATURE as received: hex, or whatever the client sent. */
  signature: string;
  secret: string;
  /** X-API-KEY when known, to spot a key and a secret of different environments. */
  apiKey?: string;
  /**
   * The order a sender builds its objects in, when the body is not its own serialization: a webhook
   * is delivered as canonical text, so the order its sender built the event in (the documented one,
   * P-HOOK-2) is lost from the body, and a signature over that order is "unsorted-keys" all the same.
   */
  builtOrder?: FieldOrder;
}

export interface Divergence {
  /** Offset, in UTF-8 bytes, of the first byte where the client's signed text parts from the profile's. */
  byteOffset: number;
  /** The same point as a UTF-16 index, for slicing the strings below. */
  index: number;
  expected: string;
  actual: string;
}

export interface Diagnosis {
  match: boolean;
  /** The best explanation: ["canonical"] on a match, [] when nothing explains the signature. */
  variants: VariantId[];
  /** Other explanations that produce the same signature (rare: only when texts coincide). */
  candidates: VariantId[][];
  detail: DiagnosisDetail;
}

export interface DiagnosisDetail {
  bodyIsJson: boolean;
  /** The profile's canonical text and message (P-SIGN-1/2) and its signature under the given secret. */
  canonical: string;
  message: string;
  expectedSignature: string;
  /** The text the client signed, when an explanation was found. */
  signedMessage?: string;
  /** Where the client's signed message parts from the profile's canonical message. */
  divergence?: Divergence;
  /** Where the bytes sent part from the payload text the client signed, when they differ (P-SIGN-3). */
  sentDivergence?: Divergence;
  tried: { texts: number; messages: number };
  warnings: string[];
  /** When nothing explains the signature: what is left, likeliest first. */
  likelyCauses: string[];
}

export class DiagnoseInputError extends Error {
  override readonly name = 'DiagnoseInputError';
  readonly code = 'SVC_DIAGNOSE_INPUT';
}

interface Decoded {
  bytes: Buffer;
  algorithm: HmacAlgorithm;
  labels: VariantId[];
}

interface Candidate {
  text: string;
  labels: VariantId[];
  /** The payload text inside the signed message, without the timestamp. */
  payload?: string;
}

interface TimestampForm {
  value: string;
  labels: VariantId[];
}

/** Most explanations to list besides the best one. */
const MAX_CANDIDATES = 8;
/** Texts tried with every millisecond of the second, when nothing else explains the signature. */
const MILLISECOND_TEXTS = 24;

/**
 * Explains a signature: is it the profile's signature of this body and timestamp under this secret,
 * and if not, which known client mistakes (alone or combined) produce it. Pure and deterministic.
 */
export function diagnose(input: DiagnoseInput): Diagnosis {
  const timestamp = input.timestamp.trim();
  if (!/^\d+(\.\d+)?$/.test(timestamp)) {
    throw new DiagnoseInputError(
      `diagnose: timestamp ${JSON.stringify(input.timestamp)} is not a UNIX time; pass X-TIMESTAMP exactly as sent`,
    );
  }
  if (input.secret === '') throw new DiagnoseInputError('diagnose: the secret key is empty');

  const seconds = profileSeconds(timestamp);
  const parsed = parseBody(input.body);
  const canonical = parsed.canonical;
  const message = canonical + seconds;
  const expectedSignature = new HmacKey('sha256', input.secret).digest(message);
  const warnings: string[] = [];
  const detail: DiagnosisDetail = {
    bodyIsJson: parsed.isJson,
    canonical,
    message,
    expectedSignature,
    tried: { texts: 0, messages: 0 },
    warnings,
    likelyCauses: [],
  };
  if (!parsed.isJson && input.body !== '') {
    warnings.push('the body is not JSON; the kit signs such a body as its raw text (P-ERR-4), so that is what was compared');
  }

  const decoded = decodeSignature(input.signature);
  if (decoded === undefined) {
    detail.likelyCauses.push(
      `the signature is not an HMAC digest in hex or base64 (${input.signature.trim().length} characters; HMAC-SHA256 in hex is 64): it was truncated, altered, or is not a signature`,
    );
    return { match: false, variants: [], candidates: [], detail };
  }

  const texts = candidateTexts(input.body, parsed, timestamp, input.builtOrder);
  const keys = candidateKeys(input.secret, decoded.algorithm);
  const forms = timestampForms(timestamp);
  const sent = decoded.bytes.toString('hex');
  const matches: Candidate[] = [];
  let tried = 0;

  for (const key of keys) {
    for (const candidate of texts) {
      const started = key.hmac.start(candidate.text);
      for (const form of forms) {
        tried++;
        if (key.hmac.finish(started, form.value) === sent) {
          matches.push({
            text: candidate.text + form.value,
            payload: candidate.text,
            labels: [...candidate.labels, ...form.labels, ...key.labels],
          });
        }
      }
      // The timestamp placed first, and the payload alone (or with the timestamp inside it).
      tried += 2;
      for (const form of forms.slice(0, 1)) {
        if (key.hmac.digest(form.value + candidate.text) === sent) {
          matches.push({
            text: form.value + candidate.text,
            payload: candidate.text,
            labels: [...candidate.labels, 'timestamp-first', ...form.labels, ...key.labels],
          });
        }
      }
      if (key.hmac.digest(candidate.text) === sent) {
        const inside: VariantId =
          candidate.withTimestamp || timestampField(parsed.tree, timestamp) ? 'timestamp-in-body' : 'timestamp-omitted';
        matches.push({
          text: candidate.text,
          payload: candidate.text,
          labels: [...candidate.labels.filter((l) => l !== 'timestamp-in-body'), inside, ...key.labels],
        });
      }
    }
  }

  if (matches.length === 0 && /^\d{1,12}$/.test(timestamp)) {
    // A client that sent seconds but signed Date.now(): try every millisecond of that second.
    const key = keys[0]!;
    const base = Number(timestamp) * 1000;
    for (const candidate of texts.slice(0, MILLISECOND_TEXTS)) {
      const started = key.hmac.start(candidate.text);
      for (let ms = 1; ms < 1000; ms++) {
        tried++;
        const value = String(base + ms);
        if (key.hmac.finish(started, value) === sent) {
          matches.push({
            text: candidate.text + value,
            payload: candidate.text,
            labels: [...candidate.labels, 'timestamp-milliseconds', ...key.labels],
          });
        }
      }
    }
  }

  detail.tried = { texts: texts.length, messages: tried };
  const explanations = rank(matches, decoded.labels);
  const best = explanations[0];
  if (best === undefined) {
    detail.likelyCauses = likelyCauses(input, parsed.isJson);
    return { match: false, variants: [], candidates: [], detail };
  }
  detail.signedMessage = best.text;
  if (best.text !== message) detail.divergence = divergence(message, best.text);
  const sentAsSigned = sentBytesVerdict(input.body, parsed, best);
  if (sentAsSigned.divergence !== undefined) detail.sentDivergence = sentAsSigned.divergence;
  if (sentAsSigned.warning !== undefined) warnings.push(sentAsSigned.warning);
  const labels = [...best.labels, ...sentAsSigned.labels];
  // A match is the profile's signature of the canonical text AND that text sent byte for byte (P-SIGN-3).
  const match = labels.length === 0;
  return {
    match,
    variants: match ? ['canonical'] : labels,
    candidates: explanations.slice(1, 1 + MAX_CANDIDATES).map((c) => c.labels),
    detail,
  };
}

/**
 * P-SIGN-3 asks that the bytes sent be the very text signed. A client that signs the canonical text
 * but lets its HTTP library serialize the payload again sends other bytes: a raw-body server refuses
 * it, so that is no match (`body-not-canonical`). When the signed text is neither the canonical text
 * nor the bytes sent, the labels already say how it was written; a note says the bytes differ too.
 */
function sentBytesVerdict(
  body: string,
  parsed: { isJson: boolean; canonical: string },
  best: Candidate,
): { labels: VariantId[]; divergence?: Divergence; warning?: string } {
  const signed = best.payload;
  if (!parsed.isJson || signed === undefined || signed === body) return { labels: [] };
  const where = divergence(signed, body);
  if (signed === parsed.canonical) return { labels: ['body-not-canonical'], divergence: where };
  if (best.labels.includes('timestamp-in-body')) return { labels: [] };
  return {
    labels: [],
    divergence: where,
    warning: `the bytes sent are not the text the sender signed: they part from it at byte ${where.byteOffset}`,
  };
}

const TOO_DEEP =
  'diagnose: the body nests objects or arrays too deeply (thousands of levels) to be canonicalized, so no signature of it can be explained';

function parseBody(body: string): { isJson: boolean; canonical: string; tree?: JsonNode } {
  if (body === '') return { isJson: false, canonical: '' };
  let tree: JsonNode;
  try {
    tree = parseJsonTree(body);
  } catch (error) {
    // Nested beyond the parser's recursion: JSON, but none the kit can canonicalize, so not "not JSON".
    if (error instanceof RangeError) throw new DiagnoseInputError(TOO_DEEP);
    return { isJson: false, canonical: body };
  }
  try {
    return { isJson: true, canonical: canonicalize(JSON.parse(body)), tree };
  } catch (error) {
    if (error instanceof SignerError && error.code === 'SVC_TOO_DEEP') throw new DiagnoseInputError(TOO_DEEP);
    // JSON text the profile cannot sign canonically (a number beyond a double, 1e400): compare it raw.
    return { isJson: false, canonical: body };
  }
}

/** The seconds text the profile's message uses for a timestamp as sent. */
function profileSeconds(timestamp: string): string {
  const whole = timestamp.split('.')[0]!;
  return whole.length >= 13 ? whole.slice(0, -3) : whole;
}

function timestampForms(timestamp: string): TimestampForm[] {
  const [whole = '', fraction] = timestamp.split('.');
  if (fraction !== undefined) {
    return [
      { value: timestamp, labels: ['timestamp-fractional'] },
      { value: whole, labels: ['timestamp-fractional'] },
    ];
  }
  if (whole.length >= 13) {
    return [
      { value: whole, labels: ['timestamp-milliseconds'] },
      { value: whole.slice(0, -3), labels: ['timestamp-milliseconds'] },
    ];
  }
  return [
    { value: whole, labels: [] },
    { value: whole + '000', labels: ['timestamp-milliseconds'] },
  ];
}

/** A text the client may have signed, and whether it is the payload with the timestamp put inside. */
interface SignedText {
  text: string;
  labels: VariantId[];
  withTimestamp?: boolean;
}

/** Field names clients use for a timestamp they put inside the payload. */
const TIMESTAMP_FIELDS = ['timestamp', 'ts'] as const;

function candidateTexts(
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
function timestampField(tree: JsonNode | undefined, timestamp: string): string | undefined {
  if (tree?.kind !== 'object') return undefined;
  const hit = tree.entries.find(
    ([name, value]) =>
      (TIMESTAMP_FIELDS as readonly string[]).includes(name) &&
      ((value.kind === 'number' && value.text === timestamp) || (value.kind === 'string' && value.value === timestamp)),
  );
  return hit?.[0];
}

function candidateKeys(secret: string, algorithm: HmacAlgorithm): Array<{ hmac: HmacKey; labels: VariantId[] }> {
  const algorithmLabels: VariantId[] = algorithm === 'sha1' ? ['hmac-sha1'] : algorithm === 'sha512' ? ['hmac-sha512'] : [];
  const secrets: Array<[string, VariantId[]]> = [
    [secret, []],
    [secret + '\n', ['secret-trailing-newline']],
    [secret + '\r\n', ['secret-trailing-newline']],
  ];
  if (secret.trim() !== secret) secrets.push([secret.trim(), ['secret-untrimmed']]);
  return secrets.map(([key, labels]) => ({ hmac: new HmacKey(algorithm, key), labels: [...labels, ...algorithmLabels] }));
}

function decodeSignature(received: string): Decoded | undefined {
  let text = received.trim();
  const prefixed = /^(?:sha256|sha1|sha512|v1|hmac-sha256)=(.+)$/i.exec(text);
  const prefixLabels: VariantId[] = prefixed ? ['signature-prefix'] : [];
  if (prefixed) text = prefixed[1]!;
  const algorithmOf = (length: number): HmacAlgorithm | undefined =>
    length === 32 ? 'sha256' : length === 20 ? 'sha1' : length === 64 ? 'sha512' : undefined;

  if (/^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0) {
    const algorithm = algorithmOf(text.length / 2);
    if (algorithm !== undefined) {
      const labels: VariantId[] = [...prefixLabels, ...(/[A-F]/.test(text) ? (['uppercase-hex'] as const) : [])];
      return { bytes: Buffer.from(text, 'hex'), algorithm, labels };
    }
  }
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    // base64 of the hex text (PHP's base64_encode(hash_hmac(…))): 88 characters for SHA-256, the
    // length of a raw SHA-512 digest in base64 too, so the decoded bytes decide. Random digest bytes
    // are all hex digits with a probability of about (22/256)^64.
    const hexText = bytes.toString('latin1');
    const hexAlgorithm = /^[0-9a-fA-F]+$/.test(hexText) ? algorithmOf(hexText.length / 2) : undefined;
    if (hexAlgorithm !== undefined) {
      const upper: VariantId[] = /[A-F]/.test(hexText) ? ['uppercase-hex'] : [];
      return { bytes: Buffer.from(hexText, 'hex'), algorithm: hexAlgorithm, labels: [...prefixLabels, 'base64-of-hex', ...upper] };
    }
    const algorithm = algorithmOf(bytes.length);
    if (algorithm !== undefined) return { bytes, algorithm, labels: [...prefixLabels, 'base64'] };
  }
  return undefined;
}

/** Fewest variants first: the simplest story that explains the bytes is the likeliest. */
function rank(matches: Candidate[], encodingLabels: VariantId[]): Candidate[] {
  const seen = new Set<string>();
  const ranked: Candidate[] = [];
  for (const m of matches) {
    const labels = [...new Set([...m.labels, ...encodingLabels])];
    const id = [...labels].sort().join('+');
    if (seen.has(id)) continue;
    seen.add(id);
    ranked.push({ ...m, labels });
  }
  return ranked.sort((a, b) => a.labels.length - b.labels.length);
}

function divergence(expected: string, actual: string): Divergence {
  let index = 0;
  while (index < expected.length && index < actual.length && expected.charCodeAt(index) === actual.charCodeAt(index)) index++;
  return { index, byteOffset: Buffer.byteLength(expected.slice(0, index), 'utf8'), expected, actual };
}

function likelyCauses(input: DiagnoseInput, isJson: boolean): string[] {
  const causes: string[] = [];
  const keyEnv = environmentOf(input.apiKey, 'pk');
  const secretEnv = environmentOf(input.secret, 'sk');
  if (keyEnv !== undefined && secretEnv !== undefined && keyEnv !== secretEnv) {
    causes.push(
      `environment mix-up: the API key is ${keyEnv} (pk_${keyEnv === 'production' ? 'live' : 'test'}_…) but the secret is ${secretEnv}; use the secret issued with that key`,
    );
  }
  causes.push("a different secret key: another merchant's, the other environment's, or one rotated since");
  causes.push(
    isJson
      ? 'the body changed between signing and sending (a field added or edited, or re-serialized by a framework or proxy)'
      : 'the body changed between signing and sending',
  );
  causes.push('the timestamp signed is not the one sent in X-TIMESTAMP');
  return causes;
}

function environmentOf(key: string | undefined, kind: 'pk' | 'sk'): 'sandbox' | 'production' | undefined {
  if (key?.startsWith(`${kind}_test_`)) return 'sandbox';
  if (key?.startsWith(`${kind}_live_`)) return 'production';
  return undefined;
}
