// Signed reports, the module alone: which key files sign or verify (and what a bad one is told,
// never its content), the fingerprint openssl would give, and report.json.sig written with the
// report, over its exact bytes, never left beside a report it does not sign.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../core/report.js';
import { buildReport } from '../core/verdict.js';
import { certification, checkSeal } from './seal.js';
import { checkSignature, keyFingerprint, readPublicKey, readSigningKey, signatureOf, type KeyFileErrorCode } from './signature.js';
import { writeReports } from './folder.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-signature-'));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const ed25519 = generateKeyPairSync('ed25519');
const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const KEYS = {
  ed25519: file('key.pem', ed25519.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
  ed25519Public: file('pub.pem', ed25519.publicKey.export({ type: 'spki', format: 'pem' }) as string),
  rsa: file('rsa.pem', rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
  rsaPublic: file('rsa-pub.pem', rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string),
  ec: file('ec.pem', ec.privateKey.export({ type: 'sec1', format: 'pem' }) as string),
  encrypted: file(
    'encrypted.pem',
    ed25519.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pass' }) as string,
  ),
  garbage: file('garbage.pem', 'not a key at all\n'),
  unknownPem: file('unknown.pem', '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n'),
  missing: join(dir, 'missing.pem'),
  folder: dir,
};

/** Every base64 line of every key file: none may appear in a message. */
const KEY_MATERIAL = Object.values(KEYS)
  .filter((path) => path !== dir && existsSync(path))
  .flatMap((path) => readFileSync(path, 'utf8').split('\n'))
  .filter((line) => /^[A-Za-z0-9+/=]{16,}$/.test(line));

const SIGN_KEY_CASES: Array<{ key: keyof typeof KEYS; code: KeyFileErrorCode; says: RegExp }> = [
  {
    key: 'rsa',
    code: 'SVC_KEY_NOT_ED25519',
    says: /--sign-key \S+rsa\.pem holds a key of type RSA, not Ed25519; .*openssl genpkey -algorithm ed25519 -out key\.pem/,
  },
  { key: 'ec', code: 'SVC_KEY_NOT_ED25519', says: /holds a key of type EC, not Ed25519/ },
  {
    key: 'ed25519Public',
    code: 'SVC_KEY_WRONG_KIND',
    says: /--sign-key \S+pub\.pem holds a public key; it takes the private key .*verify-report --public-key takes the public one/,
  },
  { key: 'encrypted', code: 'SVC_KEY_ENCRYPTED', says: /is encrypted with a passphrase; it takes an unencrypted key/ },
  { key: 'garbage', code: 'SVC_KEY_NOT_PEM', says: /is not a PEM key file .*openssl genpkey -algorithm ed25519/ },
  { key: 'unknownPem', code: 'SVC_KEY_UNKNOWN_PEM', says: /is PEM \("BEGIN OPENSSH PRIVATE KEY"\) but not a private key the kit can read/ },
  { key: 'missing', code: 'SVC_KEY_UNREADABLE', says: /cannot read --sign-key \S+missing\.pem \(no such file\); make one with/ },
  { key: 'folder', code: 'SVC_KEY_UNREADABLE', says: /\(it is a folder\)/ },
];

const PUBLIC_KEY_CASES: Array<{ key: keyof typeof KEYS; code: KeyFileErrorCode; says: RegExp }> = [
  {
    key: 'ed25519',
    code: 'SVC_KEY_WRONG_KIND',
    says: /--public-key \S+key\.pem holds a private key; give its public key \(`openssl pkey -in key\.pem -pubout -out pub\.pem`\)/,
  },
  { key: 'rsaPublic', code: 'SVC_KEY_NOT_ED25519', says: /holds a key of type RSA, not Ed25519/ },
  { key: 'garbage', code: 'SVC_KEY_NOT_PEM', says: /is not a PEM key file/ },
  { key: 'missing', code: 'SVC_KEY_UNREADABLE', says: /cannot read --public-key \S+ \(no such file\)/ },
];

describe('readSigningKey', () => {
  it('takes an Ed25519 private key in PKCS#8 PEM and names its public key as openssl would (SHA-256 of the SPKI DER)', async () => {
    const signer = await readSigningKey(KEYS.ed25519);
    const spki = ed25519.publicKey.export({ type: 'spki', format: 'der' });
    expect(signer.signedBy).toEqual({ algorithm: 'ed25519', publicKey: `sha256:${createHash('sha256').update(spki).digest('hex')}` });
    expect(keyFingerprint(ed25519.publicKey)).toBe(signer.signedBy.publicKey);
  });

  for (const { key, code, says } of SIGN_KEY_CASES) {
    it(`refuses ${key}: ${code}, one line, no key material`, async () => {
      const error = await readSigningKey(KEYS[key]).then(
        () => undefined,
        (e: Error & { code: string }) => e,
      );
      expect(error).toMatchObject({ name: 'KeyFileError', code });
      expect(error!.message).toMatch(says);
      expect(error!.message).not.toContain('\n');
      for (const line of KEY_MATERIAL) expect(error!.message).not.toContain(line);
    });
  }
});

describe('readPublicKey', () => {
  it('takes an Ed25519 public key in SPKI PEM, with the same fingerprint as its private key', async () => {
    expect((await readPublicKey(KEYS.ed25519Public)).fingerprint).toBe((await readSigningKey(KEYS.ed25519)).signedBy.publicKey);
  });

  for (const { key, code, says } of PUBLIC_KEY_CASES) {
    it(`refuses ${key}: ${code}, one line, no key material`, async () => {
      const error = await readPublicKey(KEYS[key]).then(
        () => undefined,
        (e: Error & { code: string }) => e,
      );
      expect(error).toMatchObject({ name: 'KeyFileError', code });
      expect(error!.message).toMatch(says);
      expect(error!.message).not.toContain('\n');
      for (const line of KEY_MATERIAL) expect(error!.message).not.toContain(line);
    });
  }
});

describe('signatureOf and checkSignature', () => {
  const bytes = Buffer.from('{"verdict": "not-conformant"}\n', 'utf8');
  const signature = signatureOf(bytes, ed25519.privateKey);

  it('is one line of base64 that verifies over exactly those bytes with the public key', () => {
    expect(signature).toMatch(/^[A-Za-z0-9+/]{86}==\n$/);
    expect(checkSignature(bytes, signature, ed25519.publicKey)).toEqual({ valid: true });
  });

  it('does not verify a changed byte, another key or something that is no signature, and says which', () => {
    const changed = Buffer.from(bytes);
    changed[3] = changed[3]! ^ 0x01;
    expect(checkSignature(changed, signature, ed25519.publicKey)).toMatchObject({
      valid: false,
      why: expect.stringMatching(/does not verify with this key/),
    });
    expect(checkSignature(bytes, signature, generateKeyPairSync('ed25519').publicKey)).toMatchObject({
      valid: false,
      why: expect.stringMatching(/does not verify/),
    });
    expect(checkSignature(bytes, 'c2lnbmF0dXJl\n', ed25519.publicKey)).toMatchObject({
      valid: false,
      why: expect.stringMatching(/not a base64 Ed25519 signature/),
    });
  });
});

describe('writeReports with a signer', () => {
  const report = (): Report => ({
    ...buildReport({
      results: [{ meta: { check: 'a-check', requirement: 'A', title: 'a', evidence: [], findings: [] }, state: 'passed', durationMs: 1 }],
      catalog: [{ id: 'A', title: 'a', level: 'MUST', section: 'S', profile: [], extension: false }],
      target: { baseUrl: 'http://127.0.0.1:1', environment: 'sandbox', embeddedSandbox: false },
      seed: 1,
      runNumber: 1,
      runs: 1,
      strict: false,
      startedAt: new Date(0),
      durationMs: 0,
      version: '0.0.0',
    }),
    certification: certification({ catalogs: [], options: {} }),
  });

  it('records the key before sealing, writes report.json.sig over the exact bytes, and removes it when the next report is unsigned', async () => {
    const out = mkdtempSync(join(tmpdir(), 'svc-signed-'));
    const signer = await readSigningKey(KEYS.ed25519);
    const files = await writeReports(report(), out, signer);
    expect(files.map((f) => f.slice(out.length + 1))).toEqual(['report.json', 'report.json.sig', 'junit.xml', 'report.html']);
    const bytes = readFileSync(join(out, 'report.json'));
    const written = checkSeal(bytes.toString('utf8'));
    expect(written).toMatchObject({ intact: true, report: { certification: { signedBy: signer.signedBy } } });
    expect(checkSignature(bytes, readFileSync(join(out, 'report.json.sig'), 'utf8'), ed25519.publicKey)).toEqual({ valid: true });
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain(
      `<property name="signedBy" value="ed25519 ${signer.signedBy.publicKey}"/>`,
    );
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(signer.signedBy.publicKey);

    // An unsigned report in the same folder: the old signature would sit beside a report it does not sign.
    expect(await writeReports(report(), out)).toHaveLength(3);
    expect(existsSync(join(out, 'report.json.sig'))).toBe(false);
  });
});
