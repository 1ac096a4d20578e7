import { createHmac } from 'node:crypto';
import { canonicalize } from './canonical.js';
import { SignerError } from './errors.js';
import { parseJsonTree, type JsonNode } from './json-tree.js';
import { candidateTexts, timestampField, type SignedText } from './signed-texts.js';
import type { FieldOrder, VariantId } from './variants.js';

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
  /** The order a sender builds its objects in: a webhook arrives canonical, so only this finds P-HOOK-2's order. */
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

type HmacAlgorithm = 'sha1' | 'sha256' | 'sha512';

/** A secret as the client may have used it, and the labels that way of using it adds. */
interface Key {
  secret: string;
  algorithm: HmacAlgorithm;
  labels: VariantId[];
}

interface Candidate {
  text: string;
  labels: VariantId[];
  /** The payload text inside the signed message, without the timestamp. */
  payload?: string;
}

type SentVerdict = { labels: VariantId[]; divergence?: Divergence; warning?: string };

/** Most explanations to list besides the best one. */
const MAX_CANDIDATES = 8;
/** Texts tried with every millisecond of the second, when nothing else explains the signature. */
const MILLISECOND_TEXTS = 24;

/** Explains a signature: is it the profile's signature of this body and timestamp under this secret,
 *  and if not, which known client mistakes (alone or combined) produce it. Pure and deterministic. */
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
  const expectedSignature = hmacHex('sha256', input.secret, message);
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
  const { matches, tried } = search(texts, keys, decoded.bytes.toString('hex'), parsed.tree, timestamp);
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

function hmacHex(algorithm: HmacAlgorithm, secret: string, message: string): string {
  return createHmac(algorithm, secret).update(message, 'utf8').digest('hex');
}

/** The messages a client may have signed that have the signature sent, and how many were tried. */
function search(texts: SignedText[], keys: Key[], sent: string, tree: JsonNode | undefined, timestamp: string) {
  const matches: Candidate[] = [];
  let tried = 0;
  const test = (key: Key, text: string, payload: string, labels: VariantId[]): void => {
    tried++;
    if (hmacHex(key.algorithm, key.secret, text) === sent) matches.push({ text, payload, labels: [...labels, ...key.labels] });
  };
  const forms = timestampForms(timestamp);
  for (const key of keys) {
    for (const { text, labels, withTimestamp } of texts) {
      for (const form of forms) test(key, text + form.value, text, [...labels, ...form.labels]);
      // The timestamp placed first, and the payload alone (or with the timestamp inside it).
      test(key, forms[0]!.value + text, text, [...labels, 'timestamp-first', ...forms[0]!.labels]);
      const inside: VariantId = withTimestamp || timestampField(tree, timestamp) ? 'timestamp-in-body' : 'timestamp-omitted';
      test(key, text, text, [...labels.filter((l) => l !== 'timestamp-in-body'), inside]);
    }
  }
  if (matches.length === 0 && /^\d{1,12}$/.test(timestamp)) {
    // A client that sent seconds but signed Date.now(): try every millisecond of that second.
    const base = Number(timestamp) * 1000;
    for (const { text, labels } of texts.slice(0, MILLISECOND_TEXTS))
      for (let ms = 1; ms < 1000; ms++) test(keys[0]!, text + String(base + ms), text, [...labels, 'timestamp-milliseconds']);
  }
  return { matches, tried };
}

/** P-SIGN-3: the bytes sent must be the text signed. The canonical text signed and other bytes sent is
 *  no match (`body-not-canonical`, a raw-body server refuses it); any other difference is a warning. */
function sentBytesVerdict(body: string, parsed: { isJson: boolean; canonical: string }, best: Candidate): SentVerdict {
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
  try {
    const tree = parseJsonTree(body);
    return { isJson: true, canonical: canonicalize(JSON.parse(body)), tree };
  } catch (error) {
    // Nested beyond the parser's recursion, or canonicalize's: JSON, but none the kit can canonicalize, so not "not JSON".
    if (error instanceof RangeError || (error instanceof SignerError && error.code === 'SVC_TOO_DEEP'))
      throw new DiagnoseInputError(TOO_DEEP);
    // Not JSON, or JSON the profile cannot sign canonically (a number beyond a double, 1e400): compare it raw.
    return { isJson: false, canonical: body };
  }
}

/** The seconds text the profile's message uses for a timestamp as sent. */
function profileSeconds(timestamp: string): string {
  const whole = timestamp.split('.')[0]!;
  return whole.length >= 13 ? whole.slice(0, -3) : whole;
}

/** The timestamp texts a client may have signed for the one sent, with the variants each stands for. */
function timestampForms(timestamp: string): { value: string; labels: VariantId[] }[] {
  const [whole = '', fraction] = timestamp.split('.');
  const both = (values: string[], label: VariantId) => values.map((value) => ({ value, labels: [label] }));
  if (fraction !== undefined) return both([timestamp, whole], 'timestamp-fractional');
  if (whole.length >= 13) return both([whole, whole.slice(0, -3)], 'timestamp-milliseconds');
  return [
    { value: whole, labels: [] },
    { value: whole + '000', labels: ['timestamp-milliseconds'] },
  ];
}

function candidateKeys(secret: string, algorithm: HmacAlgorithm): Key[] {
  const algorithmLabels: VariantId[] = algorithm === 'sha1' ? ['hmac-sha1'] : algorithm === 'sha512' ? ['hmac-sha512'] : [];
  const secrets: Array<[string, VariantId[]]> = [
    [secret, []],
    [secret + '\n', ['secret-trailing-newline']],
    [secret + '\r\n', ['secret-trailing-newline']],
  ];
  if (secret.trim() !== secret) secrets.push([secret.trim(), ['secret-untrimmed']]);
  return secrets.map(([key, labels]) => ({ secret: key, algorithm, labels: [...labels, ...algorithmLabels] }));
}

function decodeSignature(received: string): { bytes: Buffer; algorithm: HmacAlgorithm; labels: VariantId[] } | undefined {
  let text = received.trim();
  const prefixed = /^(?:sha256|sha1|sha512|v1|hmac-sha256)=(.+)$/i.exec(text);
  const prefixLabels: VariantId[] = prefixed ? ['signature-prefix'] : [];
  if (prefixed) text = prefixed[1]!;
  const algorithmOf = (length: number): HmacAlgorithm | undefined =>
    length === 32 ? 'sha256' : length === 20 ? 'sha1' : length === 64 ? 'sha512' : undefined;
  // A digest in hex, within whatever `wrapped` says it came in.
  const fromHex = (hex: string, wrapped: VariantId[]) => {
    const algorithm = /^[0-9a-fA-F]+$/.test(hex) && hex.length % 2 === 0 ? algorithmOf(hex.length / 2) : undefined;
    const upper: VariantId[] = /[A-F]/.test(hex) ? ['uppercase-hex'] : [];
    return algorithm && { bytes: Buffer.from(hex, 'hex'), algorithm, labels: [...prefixLabels, ...wrapped, ...upper] };
  };

  const hex = fromHex(text, []);
  if (hex) return hex;
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    // base64 of the hex text (PHP's base64_encode(hash_hmac(…))) has a raw SHA-512 digest's length,
    // so the decoded bytes decide: random digest bytes are all hex digits with odds of (22/256)^64.
    const ofHex = fromHex(bytes.toString('latin1'), ['base64-of-hex']);
    if (ofHex) return ofHex;
    const algorithm = algorithmOf(bytes.length);
    if (algorithm !== undefined) return { bytes, algorithm, labels: [...prefixLabels, 'base64'] };
  }
  return undefined;
}

/** Fewest variants first: the simplest story that explains the bytes is the likeliest. */
function rank(matches: Candidate[], encodingLabels: VariantId[]): Candidate[] {
  const byStory = new Map<string, Candidate>();
  for (const m of matches) {
    const labels = [...new Set([...m.labels, ...encodingLabels])];
    const id = [...labels].sort().join('+');
    if (!byStory.has(id)) byStory.set(id, { ...m, labels });
  }
  return [...byStory.values()].sort((a, b) => a.labels.length - b.labels.length);
}

function divergence(expected: string, actual: string): Divergence {
  let index = 0;
  while (index < expected.length && index < actual.length && expected.charCodeAt(index) === actual.charCodeAt(index)) index++;
  return { index, byteOffset: Buffer.byteLength(expected.slice(0, index), 'utf8'), expected, actual };
}

function likelyCauses(input: DiagnoseInput, isJson: boolean): string[] {
  const causes = [
    "a different secret key: another merchant's, the other environment's, or one rotated since",
    isJson
      ? 'the body changed between signing and sending (a field added or edited, or re-serialized by a framework or proxy)'
      : 'the body changed between signing and sending',
    'the timestamp signed is not the one sent in X-TIMESTAMP',
  ];
  const keyEnv = keyEnvironment(input.apiKey, 'pk');
  const secretEnv = keyEnvironment(input.secret, 'sk');
  if (keyEnv === undefined || secretEnv === undefined || keyEnv === secretEnv) return causes;
  const mixUp = `environment mix-up: the API key is ${keyEnv} (pk_${keyEnv === 'production' ? 'live' : 'test'}_…) but the secret is ${secretEnv}; use the secret issued with that key`;
  return [mixUp, ...causes];
}

/** The environment a key's prefix names (pk_test_ / sk_live_), if it names one. */
export function keyEnvironment(key: string | undefined, kind: 'pk' | 'sk'): 'sandbox' | 'production' | undefined {
  if (key?.startsWith(`${kind}_test_`)) return 'sandbox';
  if (key?.startsWith(`${kind}_live_`)) return 'production';
  return undefined;
}
