// Without a key verify-report checks nothing unless --allow-unsigned (P-CLI v1.3): `verify-report F && deploy`
// must not pass on a report nobody signed. Everything shown from the file is escaped.
import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { verdictText } from '../../core/verdict.js';
import { plural } from '../../common/plural.js';
import { visible } from '../../common/visible.js';
import { inconsistencies } from '../../core/consistency.js';
import type { Report } from '../../core/report.js';
import { checkParsedSeal, parseReport } from '../../reports/seal.js';
import { checkSignature, readPublicKey, signatureFileOf } from '../../reports/signature.js';
import { UsageError, type Io } from '../io.js';
import { defineCommand } from '../options.js';

/** A report is a few MB at most; refuse to read something far larger. */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;
/** A signature file holds one line of 88 characters. */
const MAX_SIGNATURE_BYTES = 4 * 1024;
/** Inconsistencies shown at most; the rest are counted. */
const MAX_SHOWN = 20;

const DIGEST_MEANS = 'a digest finds an accidental change, not who wrote the report: anyone can recompute it';
/** What --allow-unsigned's exit 0 says, and does not. */
const NOBODY_PROVEN = 'nobody is proven to have written this report: anyone can edit a report and recompute its digest';

export const verifyReportCommand = defineCommand({
  name: 'verify-report',
  summary:
    'Checks a report.json: its signature with --public-key, its digest, and that its counts and verdict follow from its requirements.',
  usage: 'svc-conformance verify-report FILE|DIR --public-key PUB.pem | --allow-unsigned',
  positionals: true,
  options: [
    {
      name: 'public-key',
      value: 'PUB.pem',
      description:
        'the Ed25519 public key (SPKI PEM) of the key that signed the report (run --sign-key): FILE.sig beside FILE must verify with it',
    },
    {
      name: 'allow-unsigned',
      description: 'without a key: check the digest and consistency alone, which shows an accidental change but not who wrote the report',
    },
  ],
  details: [
    'FILE is a report.json (DIR: the report folder holding one). Always checked: its SHA-256 digest, and that its counts (summary),',
    'coverage and verdict follow from its requirements; any that does not is named ("summary.failed says 1, the requirements give 0").',
    'A digest finds an accidental change, not who wrote the report: anyone can recompute it. A run given --sign-key KEY.pem writes',
    'report.json.sig beside the report, the base64 Ed25519 signature of its exact bytes; --public-key PUB.pem checks it, and says which',
    'key that is (sha256 of its public key) and whether certification.signedBy names it. A signature shows the report was not changed',
    'since a holder of the private key signed it; it does not show that the run itself was honest.',
    'openssl checks the signature without the kit: base64 -d report.json.sig > sig.bin && openssl pkeyutl -verify -pubin -inkey pub.pem -rawin -in report.json -sigfile sig.bin',
    'Without --public-key it exits 2, so that `verify-report FILE && deploy` cannot pass on a report nobody signed; --allow-unsigned',
    'checks the digest and consistency alone and says that nobody is proven to have written the report.',
    'Exit status: 0 the signature verifies, the digest matches and the report is consistent (with --allow-unsigned: the digest matches',
    'and it is consistent); 1 otherwise, or not a report, or no FILE.sig; 2 bad usage (neither --public-key nor --allow-unsigned, or',
    'both), FILE cannot be read, or --public-key is not an Ed25519 public key.',
  ],
  examples: [
    'svc-conformance verify-report out --public-key pub.pem',
    'svc-conformance verify-report svc-reports/run/report.json --allow-unsigned',
  ],
  async run(options, io, positionals) {
    if (positionals.length !== 1)
      throw new UsageError(
        'verify-report: give one report.json (or its folder), e.g. verify-report svc-reports/run/report.json --public-key pub.pem',
      );
    if (options['public-key'] === undefined && options['allow-unsigned'] !== true)
      throw new UsageError(
        "verify-report: give --public-key PUB.pem (the public key of the run's --sign-key) to check who signed the report, or --allow-unsigned to check its digest and consistency alone, which anyone editing it can recompute",
      );
    if (options['public-key'] !== undefined && options['allow-unsigned'] === true)
      throw new UsageError(
        'verify-report: --allow-unsigned is for a report without a key; with --public-key the signature is checked, so give one or the other',
      );
    // Read and checked before the report: a bad key file is bad usage (exit 2, main).
    const keyFile = options['public-key'];
    const publicKey = keyFile !== undefined ? { ...(await readPublicKey(resolve(io.cwd, keyFile), keyFile)), shownAs: keyFile } : undefined;
    const { path, bytes } = await readReportFile(io, positionals[0]!);
    const shown = visible(path);

    let text: string;
    try {
      // Exactly the bytes: a byte-order mark or a broken UTF-8 sequence is a change, not something to smooth over.
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      io.stdout(`✗ NOT A REPORT  ${shown}: it is not UTF-8 text\n`);
      return 1;
    }
    const parsed = parseReport(text);
    if ('notAReport' in parsed) {
      io.stdout(`✗ NOT A REPORT  ${shown}: ${parsed.notAReport}\n`);
      return 1;
    }
    const report = parsed.report;

    const seal = checkParsedSeal(report, text);
    io.stdout(
      seal.intact ? `✓ DIGEST MATCHES  ${shown}: ${visible(String(report.digest))}\n` : `✗ ALTERED  ${shown}: ${visible(seal.why)}\n`,
    );
    io.stdout(`  ${describe(report)}\n`);

    const problems = inconsistencies(report);
    if (problems.length === 0) {
      io.stdout(`✓ CONSISTENT  its counts, coverage and verdict follow from its ${plural(report.requirements.length, 'requirement')}\n`);
    } else {
      io.stdout(`✗ INCONSISTENT  what it says does not follow from its requirements:\n`);
      for (const problem of problems.slice(0, MAX_SHOWN)) io.stdout(`  - ${visible(problem)}\n`);
      if (problems.length > MAX_SHOWN) io.stdout(`  …and ${problems.length - MAX_SHOWN} more\n`);
    }

    const signed = await saySignature(io, { report, bytes, shown, sigPath: signatureFileOf(path), publicKey });
    return seal.intact && problems.length === 0 && signed ? 0 : 1;
  },
});

/** Whether report.json.sig verifies with --public-key, said; without a key (--allow-unsigned), what that leaves unproven. */
async function saySignature(
  io: Io,
  given: {
    report: Report;
    bytes: Buffer;
    shown: string;
    sigPath: string;
    publicKey: (Awaited<ReturnType<typeof readPublicKey>> & { shownAs: string }) | undefined;
  },
): Promise<boolean> {
  const { report, bytes, shown, sigPath, publicKey } = given;
  const sigName = visible(basename(sigPath));
  const signature = await readSignatureFile(sigPath);
  const signedBy = signedByOf(report);
  if (publicKey === undefined) {
    // --allow-unsigned: the digest and consistency alone, and plainly what that does not show.
    if (signature === undefined)
      io.stdout(`! UNSIGNED  no ${sigName} beside it: ${DIGEST_MEANS}; sign with --sign-key and verify with --public-key\n`);
    else io.stdout(`! SIGNATURE NOT CHECKED  ${sigName} is present: give --public-key to check it; ${DIGEST_MEANS}\n`);
    if (signature === undefined && signedBy !== undefined)
      io.stdout(`  certification.signedBy names ${signedBy}, but there is no ${sigName}\n`);
    io.stdout(`! --allow-unsigned: ${NOBODY_PROVEN}\n`);
    return true;
  }
  const key = `the key in ${visible(publicKey.shownAs)} (ed25519 ${publicKey.fingerprint})`;
  const check =
    typeof signature === 'string' ? checkSignature(bytes, signature, publicKey.key) : { valid: false as const, why: signature?.problem };
  if (signature === undefined)
    io.stdout(`✗ NOT SIGNED  no ${sigName} beside ${shown} to check with ${key}: a run signs its report with --sign-key KEY.pem\n`);
  else if (check.valid) io.stdout(`✓ SIGNATURE VERIFIES  ${sigName} is the signature of these exact bytes by ${key}\n`);
  else io.stdout(`✗ SIGNATURE DOES NOT VERIFY  ${sigName}, checked with ${key}: ${check.why}\n`);
  io.stdout(
    `  ${signedBy === undefined ? 'certification.signedBy names no key' : signedBy === `ed25519 ${publicKey.fingerprint}` ? 'certification.signedBy names this key' : `certification.signedBy names another key: ${signedBy}`}\n`,
  );
  return check.valid;
}

/** The report's path (FILE, or DIR/report.json) and its exact bytes, read bounded. */
async function readReportFile(io: Io, given: string): Promise<{ path: string; bytes: Buffer }> {
  let path = resolve(io.cwd, given);
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw new UsageError(`verify-report: no such file ${given}`);
  if (info.isDirectory()) path = join(path, 'report.json');
  try {
    if ((await stat(path)).size > MAX_REPORT_BYTES) throw new UsageError(`verify-report: ${given} is over 256 MiB: not a report.json`);
    return { path, bytes: await readFile(path) };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`verify-report: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** report.json.sig's text; undefined when there is none; a problem when it is there but cannot be a signature. */
async function readSignatureFile(path: string): Promise<string | { problem: string } | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return undefined;
  if (!info.isFile() || info.size > MAX_SIGNATURE_BYTES)
    return { problem: 'it is not a signature file (a signature is one line of 88 characters)' };
  try {
    return await readFile(path, 'latin1');
  } catch (error) {
    return { problem: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
}

/** "ed25519 sha256:…" as certification.signedBy records it, escaped; undefined when it records none. */
function signedByOf(report: Report): string | undefined {
  const signedBy = (report.certification as { signedBy?: unknown } | undefined)?.signedBy as Record<string, unknown> | undefined;
  if (signedBy === null || typeof signedBy !== 'object') return undefined;
  return visible(`${String(signedBy.algorithm)} ${String(signedBy.publicKey)}`);
}

/** What the report says of itself, in one line, every part of it from the file escaped. */
function describe(report: Report): string {
  const text = (value: unknown) =>
    visible(typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : 'unknown');
  const r = report as unknown as Record<string, Record<string, unknown> | undefined>;
  // The verdict in the words every other form uses ("conformant, partial: 12 of 95 requirements judged"),
  // when the report holds what they are made of; else its bare word.
  const wellFormed =
    typeof r.coverage?.judged === 'number' &&
    typeof r.coverage?.total === 'number' &&
    (report.verdict !== 'inconclusive' || Array.isArray(r.reasons));
  const verdict = wellFormed ? visible(verdictText(report)) : text(report.verdict);
  const what = r.target?.embeddedSandbox === true ? "the kit's own embedded reference sandbox, not a deployment, " : '';
  return `${text(r.tool?.name)} ${text(r.tool?.version)}, profile ${text(r.certification?.profile)}; ${verdict} (${what}${text(r.target?.baseUrl)}, ${text(r.target?.environment)}), started ${text(report.startedAt)}`;
}
