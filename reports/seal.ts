// A SHA-256 digest over the report finds an accidental change (verify-report); anyone can recompute
// it, so who wrote the report is shown only by a signature (signature.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nestedDeeperThan } from '../common/json-depth.js';
import { jsonOf } from '../core/json-of.js';
import { jsonWithVisibleControls } from '../common/visible.js';
import { packageRoot } from '../common/package-root.js';
import { type Certification, PROFILE_VERSION, type Report } from '../core/report.js';
import { canonicalize } from '../signer/canonical.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A catalog file of the kit, named with the SHA-256 of its text: two runs judged by the same requirements show the same. */
function catalogVersion(file: string): { file: string; digest: string } {
  return { file, digest: `sha256:${sha256(readFileSync(join(packageRoot(), file), 'utf8'))}` };
}

/** Key names whose values are secrets in a P-CFG config: replaced before it is fingerprinted or shown. */
const SECRET_KEYS = new Set(['secretKey']);

/** The config with every secret replaced, and the SHA-256 of its canonical text (the fingerprint). A driver
 *  is a command that may carry credentials of its own (a password, a token): only its digest is shown. */
export function configFingerprint(config: unknown): NonNullable<Certification['config']> {
  const redacted = JSON.parse(
    JSON.stringify(config ?? {}, (key, value: unknown) => (SECRET_KEYS.has(key) && typeof value === 'string' ? '[redacted]' : value)),
  ) as Record<string, unknown>;
  const drivers = redacted.drivers;
  if (drivers !== null && typeof drivers === 'object')
    for (const [name, command] of Object.entries(drivers))
      (drivers as Record<string, unknown>)[name] = `[a command, sha256:${sha256(String(command))}]`;
  return { fingerprint: `sha256:${sha256(canonicalize(redacted))}`, redacted };
}

/** The certification block for a report: the profile, the catalogs, the options, the config when there is one, and the signing key when one signs. */
export function certification(input: {
  catalogs: readonly string[];
  options: Record<string, unknown>;
  config?: unknown;
  signedBy?: Certification['signedBy'];
}): Certification {
  return {
    profile: PROFILE_VERSION,
    catalogs: input.catalogs.map(catalogVersion),
    ...(input.config !== undefined ? { config: configFingerprint(input.config) } : {}),
    options: JSON.parse(JSON.stringify(input.options)) as Record<string, unknown>,
    // Who signs report.json (run --sign-key): recorded here, so the digest covers it.
    ...(input.signedBy !== undefined ? { signedBy: input.signedBy } : {}),
  };
}

/** SHA-256 over the canonical text (P-SIGN-1) of the report without its digest. */
export function digestOf(report: Report): string {
  const { digest: _digest, ...rest } = report;
  return `sha256:${sha256(canonicalize(JSON.parse(JSON.stringify(rest))))}`;
}

export function seal(report: Report): Report {
  return { ...report, digest: digestOf(report) };
}

/** report.json as the kit writes it: two-space JSON, invisible characters escaped, one final newline. */
export function reportText(report: Report): string {
  return jsonWithVisibleControls(JSON.stringify(report, null, 2)) + '\n';
}

/** Deeper than any report the kit writes: refused before the recursive digest could exhaust the stack. */
const MAX_REPORT_DEPTH = 1000;

/** report.json's text as a JSON object, or why it is not a report at all (not JSON, not an object, nested too deep). */
export function parseReport(text: string): { report: Report } | { notAReport: string } {
  const value = jsonOf(text);
  if (value === undefined) return { notAReport: 'it is not JSON (a byte was changed, or it is not a report.json)' };
  if (value === null || typeof value !== 'object')
    return { notAReport: `it is JSON ${value === null ? 'null' : typeof value}, not an object` };
  if (Array.isArray(value)) return { notAReport: 'it is a JSON array, not an object' };
  if (nestedDeeperThan(value, MAX_REPORT_DEPTH))
    return { notAReport: `it nests objects or arrays more than ${MAX_REPORT_DEPTH} levels deep; the kit writes no such report` };
  return { report: value as Report };
}

type SealCheck = { intact: true; report: Report } | { intact: false; why: string };

/** Whether report.json is byte for byte the kit's writing of its content, digest matching. It cannot show
 * who wrote it: anyone can recompute the digest (see signature.ts). */
export function checkSeal(text: string): SealCheck {
  const parsed = parseReport(text);
  if ('notAReport' in parsed) return { intact: false, why: `not a report: ${parsed.notAReport}` };
  return checkParsedSeal(parsed.report, text);
}

/** checkSeal for a report already parsed (by parseReport) from `text`. */
export function checkParsedSeal(report: Report, text: string): SealCheck {
  const broken = (why: string): SealCheck => ({ intact: false, why });
  if (typeof report.digest !== 'string')
    return broken(
      'it has no digest: it was not written by a kit that seals its reports (0.1.0 from this version on), or the digest was removed',
    );
  const expected = digestOf(report);
  if (expected !== report.digest)
    return broken(`its content does not match its digest (${report.digest} recorded, ${expected} now): it was changed after the run`);
  if (reportText(report) !== text)
    return broken('its content matches its digest, but its bytes are not as the kit wrote them (layout or escapes changed)');
  return { intact: true, report };
}
