import { readFileSync } from 'node:fs';
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

const fixture = JSON.parse(readFileSync(new URL('./fixtures/client-signatures.json', import.meta.url), 'utf8')) as { cases: ClientCase[] };
const base = fixture.cases.find((c) => c.name === 'canonical')!;

describe('diagnose, against signatures made by Python\'s json and hmac modules', () => {
  it.each(fixture.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const d = diagnose(c);
    expect([...d.variants].sort()).toEqual([...c.variants].sort());
    expect(d.match).toBe(c.variants[0] === 'canonical');
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

  it('names Go\'s HTML escaping', () => {
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
    expect(text).toMatch(/client {5}….*https:\\\//);
    expect(text).toMatch(/\n {15} *\^\n/);
  });

  it('says what it ruled out and the likeliest causes when nothing explains it', () => {
    const c = fixture.cases.find((x) => x.name === 'production key with a sandbox secret')!;
    const d = diagnose(c);
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
    for (const c of fixture.cases) expect(formatDiagnosis(diagnose(c))).not.toContain(c.secret);
  });

  it('refuses a timestamp that is not a number', () => {
    expect(() => diagnose({ ...base, timestamp: 'yesterday' })).toThrow(DiagnoseInputError);
  });
});
