import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose, DiagnoseInputError } from './diagnose.js';
import { formatDiagnosis } from './diagnose-report.js';
import { signText } from './sign.js';

interface ClientCase {
  name: string;
  body: string;
  timestamp: string;
  secret: string;
  signature: string;
  variants: string[];
  apiKey?: string;
}

const FIXTURES = new URL('./fixtures/', import.meta.url);
const fixtureFiles = readdirSync(FIXTURES)
  .filter((f) => /^client-signatures.*\.json$/.test(f))
  .sort();
const fixtures = new Map<string, { generator: string; cases: ClientCase[] }>();
/** A fixture file, read once: its cases are the same objects in every test, so their diagnoses are found again. */
const fixtureOf = (file: string) => {
  let read = fixtures.get(file);
  if (read === undefined)
    fixtures.set(file, (read = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as { generator: string; cases: ClientCase[] }));
  return read;
};
const fixture = fixtureOf('client-signatures.json');
const base = fixture.cases.find((c) => c.name === 'canonical')!;

// A diagnosis that explains nothing tries every serialization, every millisecond of the second,
// each under every digest (0.1-0.4 s a case): each fixture case is diagnosed once per file, and the
// tests that look at the same case again (the secret never printed, the canonical ones matching)
// read that diagnosis instead of searching again. Keyed by the case object, so a test that changes
// a case (another signature, a bad timestamp) still diagnoses its own input.
const diagnoses = new Map<ClientCase, ReturnType<typeof diagnose>>();
const diagnosed = (c: ClientCase) => {
  let d = diagnoses.get(c);
  if (d === undefined) diagnoses.set(c, (d = diagnose(c)));
  return d;
};

describe.each(fixtureFiles)('diagnose, against signatures made by real client code (%s)', (file) => {
  it.each(fixtureOf(file).cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const d = diagnosed(c);
    expect([...d.variants].sort()).toEqual([...c.variants].sort());
    expect(d.match).toBe(c.variants[0] === 'canonical');
  });
});

describe('diagnose never calls a non-canonical body a match (P-SIGN-3)', () => {
  const nodeCases = fixtureOf('client-signatures-node.json').cases;
  const falseAllClear = nodeCases.find((c) => c.variants.includes('body-not-canonical'))!;

  it('says the canonical text was signed and other bytes sent, and where they part', () => {
    const d = diagnosed(falseAllClear);
    expect(d.match).toBe(false);
    expect(d.variants).toEqual(['body-not-canonical']);
    expect(d.detail.sentDivergence).toMatchObject({ byteOffset: 2 });
    expect(d.detail.signedMessage).toBe(d.detail.message);
    const text = formatDiagnosis(d);
    expect(text).toMatch(/^✗ signature mismatch, explained by: body-not-canonical\n/);
    expect(text).toMatch(/The bytes sent part from the text the sender signed at byte 2:\n {4}signed  \{"customer/);
    expect(text).toMatch(/\n {4}sent {4}\{"order_id/);
    expect(text).not.toMatch(/signature matches/);
  });

  it('combines with another explanation: milliseconds signed over the canonical text, other bytes sent', () => {
    const canonical = nodeCases.find((c) => c.variants[0] === 'canonical')!.body;
    const signature = signText(canonical, `${falseAllClear.timestamp}417`, falseAllClear.secret).signature;
    const d = diagnose({ ...falseAllClear, signature });
    expect([...d.variants].sort()).toEqual(['body-not-canonical', 'timestamp-milliseconds']);
    expect(d.match).toBe(false);
  });

  it('still matches the canonical text sent as signed, and an empty body', () => {
    for (const c of fixtureFiles.flatMap((f) => fixtureOf(f).cases).filter((x) => x.variants[0] === 'canonical'))
      expect(diagnosed(c).match, c.name).toBe(true);
  });
});

describe('diagnose, against variants made here by other means', () => {
  const canonical = base.body;
  const sign = (text: string, secret = base.secret): string => signText(text, base.timestamp, secret).signature;
  const run = (signedText: string, body = canonical) => diagnose({ ...base, body, signature: sign(signedText) });

  it('names escaped slashes and points at the first escaped slash', () => {
    const d = run(canonical.replaceAll('/', '\\/'));
    expect(d.variants).toEqual(['escaped-slashes']);
    expect(d.detail.divergence?.byteOffset).toBe(Buffer.byteLength(canonical.slice(0, canonical.indexOf('/'))));
  });

  it("names Go's HTML escaping", () => {
    const goText = canonical.replaceAll('<', '\\u003c').replaceAll('>', '\\u003e').replaceAll('&', '\\u0026');
    expect(run(goText).variants).toEqual(['html-escaped']);
  });

  it('names a PHP json_encode body: escaped slashes and escaped unicode together', () => {
    const php = canonical.replaceAll('/', '\\/').replace(/[^\x00-\x7f]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
    expect([...run(php).variants].sort()).toEqual(['escaped-slashes', 'escaped-unicode']);
  });

  it('names JSON.stringify(payload, null, 2) over unsorted keys', () => {
    const payload = JSON.parse(canonical) as Record<string, unknown>;
    const reordered = { return_url: payload.return_url, ...payload };
    const text = JSON.stringify(reordered, null, 2);
    const d = run(text, text);
    expect([...d.variants].sort()).toEqual(['pretty-printed', 'unsorted-keys']);
  });

  it('names shallow sorting and a trailing newline', () => {
    const payload = JSON.parse(canonical) as { customer: Record<string, unknown> };
    const shallow = JSON.stringify({ ...payload, customer: { phone: payload.customer.phone, ...payload.customer } });
    expect(run(shallow + '\n', shallow).variants.sort()).toEqual(['shallow-sorted-keys', 'trailing-newline']);
  });

  it('shows the bytes where the texts part, in the report', () => {
    const text = formatDiagnosis(run(canonical.replaceAll('/', '\\/')));
    expect(text).toContain('escaped-slashes');
    expect(text).toContain('canonical  …');
    expect(text).toMatch(/sender {5}….*https:\\\//);
    expect(text).toMatch(/\n {15} *\^\n/);
  });

  it('says what it ruled out and the likeliest causes when nothing explains it', () => {
    const c = fixture.cases.find((x) => x.name === 'production key with a sandbox secret')!;
    const d = diagnosed(c);
    expect(d.variants).toEqual([]);
    expect(d.detail.tried.messages).toBeGreaterThan(1000);
    expect(d.detail.likelyCauses[0]).toMatch(/environment mix-up/);
    const text = formatDiagnosis(d);
    expect(text).toMatch(/Ruled out: \d+ serializations/);
    expect(text).not.toContain(c.secret);
  });

  it('says a truncated signature is not a digest', () => {
    const d = diagnose({ ...base, signature: base.signature.slice(0, 50) });
    expect(d.variants).toEqual([]);
    expect(d.detail.likelyCauses[0]).toMatch(/50 characters/);
  });

  it('never prints the secret', () => {
    for (const c of fixture.cases) expect(formatDiagnosis(diagnosed(c))).not.toContain(c.secret);
  });

  it('refuses a timestamp that is not a number', () => {
    expect(() => diagnose({ ...base, timestamp: 'yesterday' })).toThrow(DiagnoseInputError);
  });
});
