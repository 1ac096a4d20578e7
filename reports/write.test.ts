import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../core/report.js';
import { keyFingerprint, signatureOf } from './signature.js';
import { endRun } from '../core/reporter.js';
import { reportFolder, sealedFor, writeReports } from './folder.js';

const report: Report = {
  tool: { name: 'svc-conformance', version: 'test' },
  target: { baseUrl: 'https://pay.example', environment: 'sandbox', embeddedSandbox: false },
  seed: 1,
  runNumber: 1,
  runs: 1,
  strict: false,
  startedAt: '2025-11-21T06:40:12.345Z',
  durationMs: 1,
  verdict: 'conformant',
  coverage: { judged: 0, total: 0, notJudged: [] },
  summary: { passed: 0, failed: 0, warned: 0, skipped: 0 },
  requirements: [],
  certification: { profile: 'test', catalogs: [], options: {} },
};
const key = generateKeyPairSync('ed25519').privateKey;
const signer = { key, signedBy: { algorithm: 'ed25519' as const, publicKey: keyFingerprint(key) } };
const folder = () => mkdtempSync(join(tmpdir(), 'svc-write-'));

describe('writeReports and a report.json.sig already there', () => {
  // Before: any report.json.sig in the folder was removed, another tool's too.
  it.each([
    ['alone in the folder', undefined],
    ["beside another tool's report.json", '{"tool":"jest"}\n'],
  ])('leaves one that is not beside a kit report as it is (%s)', async (_where, theirReport) => {
    const dir = folder();
    const theirs = `${signatureOf(Buffer.from('their report'), key).trim()}\n`;
    writeFileSync(join(dir, 'report.json.sig'), theirs);
    if (theirReport !== undefined) writeFileSync(join(dir, 'report.json'), theirReport);
    const files = await writeReports(report, dir);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual(['report.json', 'junit.xml', 'report.html']);
    expect(readFileSync(join(dir, 'report.json.sig'), 'utf8')).toBe(theirs);
  });

  it("removes the kit's own from an earlier signed run, so it never sits beside a report it does not sign", async () => {
    const dir = folder();
    await writeReports(report, dir, signer);
    expect(readFileSync(join(dir, 'report.json.sig'), 'utf8')).toMatch(/^[A-Za-z0-9+/]{86}==\n$/);
    await writeReports(report, dir);
    expect(() => readFileSync(join(dir, 'report.json.sig'))).toThrow(/ENOENT/);
  });
});

describe('the report folder, written by its reporters', () => {
  it('on a file it cannot write lists none of its files, tries no more, and says so once', async () => {
    const dir = folder();
    // junit.xml comes second: a folder by that name stops the rename over it.
    mkdirSync(join(dir, 'junit.xml'));
    const failures: unknown[] = [];
    const files = await endRun(
      reportFolder(dir, undefined, (error) => failures.push(error)),
      sealedFor(report, undefined),
    );
    expect(files).toEqual([]);
    expect(failures).toHaveLength(1);
    expect(existsSync(join(dir, 'report.json'))).toBe(true);
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });
});
