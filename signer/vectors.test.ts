import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalize } from './canonical.js';
import { signPayload } from './sign.js';
import { PROFILE_VERSION } from '../core/report.js';

/**
 * The published signing vectors (signer/vectors/signing-vectors.json) are written by hand and signed
 * by scripts/make-vectors.py, independently of this signer. This test holds the signer to them.
 */

interface Vector {
  id: string;
  description: string;
  tags: string[];
  payload: string;
  secret: string;
  timestamp: number;
  canonical: string;
  message: string;
  signature: string;
}

interface VectorFile {
  description: string;
  profile: string;
  how_to_use: string;
  vectors: Vector[];
}

const file = JSON.parse(readFileSync(new URL('./vectors/signing-vectors.json', import.meta.url), 'utf8')) as VectorFile;
const vectors = file.vectors;

describe('signing vectors file', () => {
  it('names the profile version the kit certifies against', () => {
    expect(file.profile).toBe(`svc-conformance profile ${PROFILE_VERSION}, P-SIGN-1/2/4`);
    expect(readFileSync(new URL('./vectors/README.md', import.meta.url), 'utf8')).toContain(`svc-conformance profile ${PROFILE_VERSION}\n`);
  });

  it('holds at least 40 vectors', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(40);
  });

  it('has unique kebab-case ids', () => {
    const ids = vectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it('has well-formed fields in every vector', () => {
    for (const v of vectors) {
      expect(v.signature, v.id).toMatch(/^[0-9a-f]{64}$/);
      expect(Number.isSafeInteger(v.timestamp), v.id).toBe(true);
      expect(v.message, v.id).toBe(v.canonical + String(v.timestamp));
      expect(v.tags.length, v.id).toBeGreaterThan(0);
    }
  });

  it('covers the no-body case (P-SIGN-4)', () => {
    const empty = vectors.filter((v) => v.payload === '');
    expect(empty.length).toBeGreaterThan(0);
    for (const v of empty) expect(v.canonical, v.id).toBe('');
  });
});

describe.each(vectors.map((v) => [v.id, v] as const))('vector %s', (_id, v) => {
  const noBody = v.payload === '';
  const payload: unknown = noBody ? undefined : JSON.parse(v.payload);

  it('canonicalize gives the canonical text', () => {
    if (noBody) {
      expect(v.canonical).toBe('');
    } else {
      expect(canonicalize(payload)).toBe(v.canonical);
    }
  });

  it('signPayload gives the message and signature', () => {
    const signed = signPayload({ payload, timestamp: v.timestamp, secret: v.secret });
    expect(signed.canonical).toBe(v.canonical);
    expect(signed.message).toBe(v.message);
    expect(signed.signature).toBe(v.signature);
  });

  it('signs the same with the timestamp given as decimal text', () => {
    const signed = signPayload({ payload, timestamp: String(v.timestamp), secret: v.secret });
    expect(signed.message).toBe(v.message);
    expect(signed.signature).toBe(v.signature);
  });
});
