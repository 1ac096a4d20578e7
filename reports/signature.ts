// Signed reports (P-CLI v1.2): an Ed25519 signature of report.json's exact bytes, checkable with openssl.
// A digest cannot show who wrote a report: anyone can recompute one.
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Certification } from '../core/report.js';

/** How to make a key pair, said by every message about a key file. */
const MAKE_A_KEY =
  'make one with `openssl genpkey -algorithm ed25519 -out key.pem` (its public key: `openssl pkey -in key.pem -pubout -out pub.pem`)';

/** How the public key that verify-report takes is made from the signer's private key. */
const PUBLIC_KEY_OF =
  "it takes the signer's Ed25519 public key in SPKI PEM, made from the private key with `openssl pkey -in key.pem -pubout -out pub.pem`";

/** Where a report's signature goes: beside it, its name and ".sig". */
export function signatureFileOf(reportPath: string): string {
  return `${reportPath}.sig`;
}

export type KeyFileErrorCode =
  | 'SVC_KEY_UNREADABLE'
  | 'SVC_KEY_NOT_PEM'
  | 'SVC_KEY_WRONG_KIND'
  | 'SVC_KEY_ENCRYPTED'
  | 'SVC_KEY_NOT_ED25519'
  | 'SVC_KEY_UNKNOWN_PEM';

/** A key file that cannot sign or verify reports; the message names the file, the problem and the fix, never the key. */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
  constructor(
    readonly code: KeyFileErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Who signs a report, as certification.signedBy records it. */
type SignedBy = NonNullable<Certification['signedBy']>;

/** A private key ready to sign, and the public key it answers to. */
export interface ReportSigner {
  key: KeyObject;
  signedBy: SignedBy;
}

/** "sha256:" and the hex SHA-256 of the public key's SPKI DER (of a private key: of its public key). */
export function keyFingerprint(key: KeyObject): string {
  const der = (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });
  return `sha256:${createHash('sha256').update(der).digest('hex')}`;
}

/** A PEM key file is a few hundred bytes; refuse to read something far larger. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/** The Ed25519 private key (PKCS#8 PEM) in `path`, checked before anything runs; a KeyFileError names the fix. */
export async function readSigningKey(path: string, shownAs: string = path): Promise<ReportSigner> {
  const where = `--sign-key ${shownAs}`;
  const { text, label } = await readPem(path, where, MAKE_A_KEY);
  if (label === 'ENCRYPTED PRIVATE KEY')
    throw new KeyFileError(
      'SVC_KEY_ENCRYPTED',
      `${where} is encrypted with a passphrase; it takes an unencrypted key, kept in the CI's secrets (decrypt it with \`openssl pkey -in key.pem -out plain.pem\`), or ${MAKE_A_KEY}`,
    );
  if (label === 'PUBLIC KEY' || label === 'CERTIFICATE') {
    throw new KeyFileError(
      'SVC_KEY_WRONG_KIND',
      `${where} holds a ${label === 'PUBLIC KEY' ? 'public key' : 'certificate'}; it takes the private key ("BEGIN PRIVATE KEY"), and verify-report --public-key takes the public one: ${MAKE_A_KEY}`,
    );
  }
  const key = ed25519Key('private', { text, label, where }, `it takes an Ed25519 private key in PKCS#8 PEM: ${MAKE_A_KEY}`, MAKE_A_KEY);
  return { key, signedBy: { algorithm: 'ed25519', publicKey: keyFingerprint(key) } };
}

/** The Ed25519 public key (SPKI PEM) in `path`, for verify-report --public-key. */
export async function readPublicKey(path: string, shownAs: string = path): Promise<{ key: KeyObject; fingerprint: string }> {
  const where = `--public-key ${shownAs}`;
  const { text, label } = await readPem(path, where, PUBLIC_KEY_OF);
  if (label.endsWith('PRIVATE KEY')) {
    throw new KeyFileError(
      'SVC_KEY_WRONG_KIND',
      `${where} holds a private key; give its public key (\`openssl pkey -in key.pem -pubout -out pub.pem\`) and keep the private key secret`,
    );
  }
  if (label === 'CERTIFICATE') throw new KeyFileError('SVC_KEY_WRONG_KIND', `${where} holds a certificate; ${PUBLIC_KEY_OF}`);
  const key = ed25519Key('public', { text, label, where }, PUBLIC_KEY_OF, PUBLIC_KEY_OF);
  return { key, fingerprint: keyFingerprint(key) };
}

/** The Ed25519 key of this kind in the PEM text; a KeyFileError when there is none the kit can read (it `takes` what),
 * or a key of another type (`fix`). */
function ed25519Key(
  kind: 'private' | 'public',
  { text, label, where }: { text: string; label: string; where: string },
  takes: string,
  fix: string,
): KeyObject {
  let key: KeyObject;
  try {
    key = (kind === 'private' ? createPrivateKey : createPublicKey)({ key: text, format: 'pem' });
  } catch {
    throw new KeyFileError('SVC_KEY_UNKNOWN_PEM', `${where} is PEM ("BEGIN ${label}") but not a ${kind} key the kit can read; ${takes}`);
  }
  if (key.asymmetricKeyType === 'ed25519') return key;
  const type = (key.asymmetricKeyType ?? 'unknown').toUpperCase();
  throw new KeyFileError(
    'SVC_KEY_NOT_ED25519',
    `${where} holds a key of type ${type}, not Ed25519; reports are signed with Ed25519: ${fix}`,
  );
}

/** The file's text and its first PEM label ("PRIVATE KEY"); never its content in a message. */
async function readPem(path: string, where: string, fix: string): Promise<{ text: string; label: string }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES' || code === 'EPERM'
            ? 'no permission to read it'
            : (code ?? 'unreadable');
    throw new KeyFileError('SVC_KEY_UNREADABLE', `cannot read ${where} (${why}); ${fix}`);
  }
  const label = bytes.length > MAX_KEY_FILE_BYTES ? undefined : /-----BEGIN ([A-Z0-9 ]{1,64})-----/.exec(bytes.toString('latin1'))?.[1];
  if (label === undefined)
    throw new KeyFileError('SVC_KEY_NOT_PEM', `${where} is not a PEM key file (no "-----BEGIN …-----" line); ${fix}`);
  return { text: bytes.toString('latin1'), label };
}

/** The base64 Ed25519 signature of exactly these bytes, as report.json.sig holds it (one line). */
export function signatureOf(bytes: Uint8Array, key: KeyObject): string {
  return sign(null, bytes, key).toString('base64') + '\n';
}

/** An Ed25519 signature is 64 bytes: 88 base64 characters, the last two "=". */
const SIGNATURE_BASE64 = /^[A-Za-z0-9+/]{86}==$/;

/** Whether a file's text has the form of report.json.sig (whatever key made it). */
export function looksLikeSignature(text: string): boolean {
  return SIGNATURE_BASE64.test(text.trim());
}

/** Whether report.json.sig's text is a signature of exactly these bytes by this public key; if not, why. */
export function checkSignature(
  bytes: Uint8Array,
  signatureText: string,
  publicKey: KeyObject,
): { valid: true } | { valid: false; why: string } {
  const base64 = signatureText.trim();
  if (!SIGNATURE_BASE64.test(base64)) return { valid: false, why: 'it is not a base64 Ed25519 signature (88 characters, 64 bytes)' };
  if (!verify(null, bytes, publicKey, Buffer.from(base64, 'base64'))) {
    return {
      valid: false,
      why: 'the signature does not verify with this key: the report was changed after it was signed, or another key signed it',
    };
  }
  return { valid: true };
}
