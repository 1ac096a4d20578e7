// verify-report against the issue's forgery: a real report of a run against a sandbox with the
// dup-race fault (DUP-CONCURRENT fails), edited to pass and its digest recomputed with the kit's own
// functions, as a forger would. The digest alone lets that through; consistency finds the counts
// left behind, and only the signature finds a forgery that fixed them too. Then openssl checks the
// signature without the kit, bad key files are exit 2, a deep file is exit 1, and what the file
// says is shown escaped.
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../core/report.js';
import { coverageOf, leftOutOf, summarize } from '../core/verdict.js';
import { reportText, seal } from '../reports/seal.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { validateSchema } from '../schemas/index.js';
import { runCli } from './cli-harness.js';

const keys = mkdtempSync(join(tmpdir(), 'svc-keys-'));
const write = (dir: string, name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const signing = generateKeyPairSync('ed25519');
const KEY = write(keys, 'key.pem', signing.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
const PUB = write(keys, 'pub.pem', signing.publicKey.export({ type: 'spki', format: 'pem' }) as string);
const OTHER_PUB = write(keys, 'other-pub.pem', generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string);
const RSA = write(
  keys,
  'rsa.pem',
  generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
);
const GARBAGE = write(keys, 'garbage.pem', 'this is no key\n');
const MISSING = join(keys, 'missing.pem');
/** Every base64 line of the key files: none may reach the console. */
const KEY_MATERIAL = [KEY, PUB, RSA]
  .flatMap((path) => readFileSync(path, 'utf8').split('\n'))
  .filter((line) => /^[A-Za-z0-9+/=]{16,}$/.test(line));

let sandbox: RunningSandbox;
let genuine = '';
let genuineText = '';
let runJson: { digest?: string; reports?: string[] } = {};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, settleSeconds: 0, faults: ['dup-race'] });
  // Real time: the revisit of DUP-PERMANENT reads at once rather than 12 real seconds later.
  const profile = { ...sandbox.config.profile, revisitAfterSeconds: 0 };
  const config = write(keys, 'target.json', JSON.stringify({ ...sandbox.config, profile }));
  genuine = mkdtempSync(join(tmpdir(), 'svc-signed-run-'));
  const run = await runCli([
    'run',
    '--config',
    config,
    '--only',
    'DUP-',
    '--runs',
    '3',
    '--seed',
    '7',
    '--sign-key',
    KEY,
    '--report-dir',
    genuine,
    '--format',
    'json',
  ]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  runJson = JSON.parse(run.stdout);
  genuineText = readFileSync(join(genuine, 'report.json'), 'utf8');
}, 60_000);
afterAll(async () => sandbox?.close());

/** A folder holding `text` as report.json, and the genuine report.json.sig beside it when asked. */
function folderWith(text: string, options: { signature: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-forged-'));
  writeFileSync(join(dir, 'report.json'), text);
  if (options.signature) copyFileSync(join(genuine, 'report.json.sig'), join(dir, 'report.json.sig'));
  return dir;
}

/** The issue's forgery: DUP-CONCURRENT passed, the verdict conformant, the digest recomputed by the kit's own seal. */
function forged(options: { fixCounts: boolean }): string {
  const report = JSON.parse(genuineText) as Report;
  const dup = report.requirements.find((r) => r.id === 'DUP-CONCURRENT')!;
  dup.status = 'passed';
  dup.evidence = [];
  report.verdict = 'conformant';
  if (options.fixCounts) {
    report.summary = summarize(report.requirements);
    report.coverage = coverageOf(report.requirements, leftOutOf(report));
  }
  return reportText(seal(report));
}

describe('the genuine signed report', () => {
  it('fails DUP-CONCURRENT, names its key, and lists report.json.sig among the reports', () => {
    const report = JSON.parse(genuineText) as Report;
    expect(report.requirements.find((r) => r.id === 'DUP-CONCURRENT')?.status).toBe('failed');
    expect(report).toMatchObject({
      verdict: 'not-conformant',
      summary: { failed: 1 },
      certification: { signedBy: { algorithm: 'ed25519', publicKey: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) } },
    });
    expect(validateSchema('report', report)).toEqual({ valid: true, errors: [] });
    expect(readdirSync(genuine).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.json.sig']);
    // The digest printed is the digest written: signedBy was in the report before it was sealed.
    expect(runJson.digest).toBe(report.digest);
    expect(runJson.reports).toContain(join(genuine, 'report.json.sig'));
  });

  it('verifies with its public key (exit 0), naming the key and that certification.signedBy names it', async () => {
    const result = await runCli(['verify-report', genuine, '--public-key', PUB]);
    const fingerprint = (JSON.parse(genuineText) as Report).certification!.signedBy!.publicKey;
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(
      /^✓ DIGEST MATCHES {2}\S+report\.json: sha256:[0-9a-f]{64}\n {2}svc-conformance \S+, profile v1\.3; not conformant \(http:\/\/127\.0\.0\.1:\d+, sandbox\), started /,
    );
    const listed = (JSON.parse(readFileSync(join(genuine, 'report.json'), 'utf8')) as { requirements: unknown[] }).requirements.length;
    expect(result.stdout).toContain(`✓ CONSISTENT  its counts, coverage and verdict follow from its ${listed} requirements\n`);
    expect(result.stdout).toContain(
      `✓ SIGNATURE VERIFIES  report.json.sig is the signature of these exact bytes by the key in ${PUB} (ed25519 ${fingerprint})\n  certification.signedBy names this key\n`,
    );
  });

  it('--allow-unsigned, no key: exit 0, saying the signature is there and not checked, and what a digest does not show', async () => {
    const result = await runCli(['verify-report', join(genuine, 'report.json'), '--allow-unsigned']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '! SIGNATURE NOT CHECKED  report.json.sig is present: give --public-key to check it; a digest finds an accidental change, not who wrote the report: anyone can recompute it\n',
    );
  });

  it('with a wrong public key: exit 1, the signature does not verify, and the key is not the one signedBy names', async () => {
    const result = await runCli(['verify-report', genuine, '--public-key', OTHER_PUB]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /✗ SIGNATURE DOES NOT VERIFY {2}report\.json\.sig, checked with the key in \S+other-pub\.pem \(ed25519 sha256:[0-9a-f]{64}\): the signature does not verify with this key/,
    );
    expect(result.stdout).toMatch(/certification\.signedBy names another key: ed25519 sha256:[0-9a-f]{64}/);
  });

  const openssl = spawnSync('openssl', ['version'], { encoding: 'utf8' });
  const noOpenssl = openssl.status !== 0 ? `skipped: no openssl on PATH (${openssl.error?.message ?? openssl.stderr})` : '';
  it.skipIf(noOpenssl !== '')(`openssl verifies report.json.sig without the kit${noOpenssl ? ` (${noOpenssl})` : ''}`, () => {
    const sig = join(keys, 'sig.bin');
    writeFileSync(sig, Buffer.from(readFileSync(join(genuine, 'report.json.sig'), 'utf8'), 'base64'));
    const verify = (report: string) =>
      spawnSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', PUB, '-rawin', '-in', report, '-sigfile', sig], { encoding: 'utf8' });
    const good = verify(join(genuine, 'report.json'));
    expect(good.status, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toMatch(/Signature Verified Successfully/);
    expect(verify(join(folderWith(forged({ fixCounts: true }), { signature: false }), 'report.json')).status).not.toBe(0);
  });
});

describe('what a verified report says it certified', () => {
  it("a narrowed run of the embedded sandbox: 'partial', and the kit's own sandbox named, as every other form says", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-narrow-signed-'));
    const run = await runCli(['run', '--only', 'AUTH-MISSING-KEY', '--seed', '7', '--sign-key', KEY, '--report-dir', dir]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const result = await runCli(['verify-report', dir, '--public-key', PUB]);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(
      /; conformant, partial: 1 of \d+ requirements judged \(the kit's own embedded reference sandbox, not a deployment, http:\/\/127\.0\.0\.1:\d+, sandbox\)/,
    );
  }, 60_000);
});

describe("the issue's forgery: DUP-CONCURRENT flipped to passed, the verdict to conformant, the digest recomputed", () => {
  it('counts left as they were: exit 1 with --allow-unsigned (no key), naming what no longer follows', async () => {
    const result = await runCli(['verify-report', folderWith(forged({ fixCounts: false }), { signature: false }), '--allow-unsigned']);
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(/^✓ DIGEST MATCHES /);
    expect(result.stdout).toContain('✗ INCONSISTENT  what it says does not follow from its requirements:\n');
    expect(result.stdout).toContain('  - summary.failed says 1, the requirements give 0\n');
    // The genuine report's passed count, and one more once DUP-CONCURRENT is flipped to passed.
    const passed = (JSON.parse(readFileSync(join(genuine, 'report.json'), 'utf8')) as { summary: { passed: number } }).summary.passed;
    expect(result.stdout).toContain(`  - summary.passed says ${passed}, the requirements give ${passed + 1}\n`);
  });

  // Before: exit 0 with no option at all, so `verify-report F && deploy` passed a forgery.
  it('counts recomputed too: without a key exit 2, naming the two ways on; --allow-unsigned exit 0, said plainly to prove no author', async () => {
    const forgery = folderWith(forged({ fixCounts: true }), { signature: false });
    expect(await runCli(['verify-report', forgery])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "svc-conformance verify-report: give --public-key PUB.pem (the public key of the run's --sign-key) to check who signed the report, or --allow-unsigned to check its digest and consistency alone, which anyone editing it can recompute\n",
    });
    expect(await runCli(['verify-report', forgery, '--allow-unsigned', '--public-key', PUB])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance verify-report: --allow-unsigned is for a report without a key; [^\n]+\n$/),
    });
    const result = await runCli(['verify-report', forgery, '--allow-unsigned']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '! --allow-unsigned: nobody is proven to have written this report: anyone can edit a report and recompute its digest\n',
    );
    expect(result.stdout).toContain('✓ CONSISTENT');
    expect(result.stdout).toContain(
      '! UNSIGNED  no report.json.sig beside it: a digest finds an accidental change, not who wrote the report: anyone can recompute it; sign with --sign-key and verify with --public-key\n',
    );
    expect(result.stdout).toMatch(/certification\.signedBy names ed25519 sha256:[0-9a-f]{64}, but there is no report\.json\.sig/);
  });

  it('with --public-key: exit 1, whether the genuine signature is kept beside it or removed', async () => {
    const kept = await runCli(['verify-report', folderWith(forged({ fixCounts: true }), { signature: true }), '--public-key', PUB]);
    expect(kept.code).toBe(1);
    expect(kept.stdout).toMatch(
      /✗ SIGNATURE DOES NOT VERIFY {2}report\.json\.sig, checked with the key in \S+pub\.pem \(ed25519 sha256:[0-9a-f]{64}\): the signature does not verify with this key: the report was changed after it was signed/,
    );
    const removed = await runCli(['verify-report', folderWith(forged({ fixCounts: true }), { signature: false }), '--public-key', PUB]);
    expect(removed.code).toBe(1);
    expect(removed.stdout).toMatch(/✗ NOT SIGNED {2}no report\.json\.sig beside \S+report\.json to check with the key in /);
  });
});

describe('--sign-key refuses a key that cannot sign, before anything runs: exit 2, one line, no key material', () => {
  const CASES: Array<[string, string, RegExp]> = [
    [
      'an RSA key',
      RSA,
      /--sign-key \S+rsa\.pem holds a key of type RSA, not Ed25519; reports are signed with Ed25519: make one with `openssl genpkey -algorithm ed25519 -out key\.pem`/,
    ],
    ['a public key', PUB, /--sign-key \S+pub\.pem holds a public key; it takes the private key/],
    ['garbage', GARBAGE, /--sign-key \S+garbage\.pem is not a PEM key file/],
    ['a missing file', MISSING, /cannot read --sign-key \S+missing\.pem \(no such file\)/],
  ];
  const oneLine = (result: { code: number; stdout: string; stderr: string }, command: string, says: RegExp) => {
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^svc-conformance ${command}: ${says.source}[^\\n]*\\n$`));
    for (const line of KEY_MATERIAL) expect(result.stdout + result.stderr).not.toContain(line);
  };

  for (const [what, key, says] of CASES) {
    it(`${what}: run, verify-client and verify-receiver`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-badkey-'));
      oneLine(await runCli(['run', '--only', 'DUP-', '--sign-key', key, '--report-dir', dir]), 'run', says);
      // The client never starts: it would leave a file behind.
      const ran = join(dir, 'client-ran');
      oneLine(
        await runCli([
          'verify-client',
          '--sign-key',
          key,
          '--report-dir',
          dir,
          '--',
          process.execPath,
          '-e',
          `require('fs').writeFileSync(${JSON.stringify(ran)}, '')`,
        ]),
        'verify-client',
        says,
      );
      expect(existsSync(ran)).toBe(false);
      // Said before the receiver is even looked for (nothing listens at port 1).
      oneLine(
        await runCli(['verify-receiver', '--url', 'http://127.0.0.1:1/webhooks', '--sign-key', key, '--report-dir', dir]),
        'verify-receiver',
        says,
      );
      expect(readdirSync(dir)).toEqual([]);
    });
  }

  it('verify-report --public-key with a private key, garbage or no file: exit 2, one line', async () => {
    expect(await runCli(['verify-report', genuine, '--public-key', KEY])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(
        /^svc-conformance verify-report: --public-key \S+key\.pem holds a private key; give its public key[^\n]*\n$/,
      ),
    });
    expect(await runCli(['verify-report', genuine, '--public-key', GARBAGE])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance verify-report: --public-key \S+garbage\.pem is not a PEM key file[^\n]*\n$/),
    });
    expect(await runCli(['verify-report', genuine, '--public-key', MISSING])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance verify-report: cannot read --public-key \S+missing\.pem \(no such file\)[^\n]*\n$/),
    });
  });
});

describe('verify-client and verify-receiver sign their reports too', () => {
  let receiver: Server;
  afterAll(() => new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve())));

  it('a signed report of each verifies with the public key', async () => {
    const client = mkdtempSync(join(tmpdir(), 'svc-signed-client-'));
    const silent = await runCli(['verify-client', '--sign-key', KEY, '--report-dir', client, '--', process.execPath, '-e', '']);
    expect(silent.code, silent.stdout + silent.stderr).toBe(1);
    // A receiver that answers 200 to everything: not conformant, and its report signed all the same.
    receiver = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hooks = mkdtempSync(join(tmpdir(), 'svc-signed-receiver-'));
    const judged = await runCli([
      'verify-receiver',
      '--url',
      `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`,
      '--sign-key',
      KEY,
      '--report-dir',
      hooks,
    ]);
    expect(judged.code, judged.stdout + judged.stderr).toBe(1);
    for (const dir of [client, hooks]) {
      const result = await runCli(['verify-report', dir, '--public-key', PUB]);
      expect(result.code, result.stdout).toBe(0);
      expect(result.stdout).toContain('certification.signedBy names this key');
    }
  }, 60_000);
});

describe('a file that is not a report, or says hostile things', () => {
  it('a JSON array 200,000 levels deep: exit 1, not a report (never a stack overflow, exit 70)', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const bare = await runCli(['verify-report', write(mkdtempSync(join(tmpdir(), 'svc-deep-')), 'report.json', deep), '--allow-unsigned']);
    expect(bare).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/^✗ NOT A REPORT {2}\S+report\.json: it is a JSON array, not an object\n$/),
    });
    // The same array inside a report's own fields, where the digest's recursion would meet it.
    const inside = `{"digest": "sha256:${'0'.repeat(64)}", "requirements": ${deep}}`;
    const nested = await runCli([
      'verify-report',
      write(mkdtempSync(join(tmpdir(), 'svc-deep-')), 'report.json', inside),
      '--allow-unsigned',
    ]);
    expect(nested).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(
        /^✗ NOT A REPORT {2}\S+report\.json: it nests objects or arrays more than 1000 levels deep; the kit writes no such report\n$/,
      ),
      stderr: '',
    });
  });

  it('control and bidi characters from the file are shown escaped, sealed or not', async () => {
    const report = JSON.parse(genuineText) as Report;
    report.target.baseUrl = 'http://evil.test/\u001b]0;pwned\u0007\u202eedoc';
    report.tool.version = '9.9.9\u001b[2J';
    report.verdict = 'inconclusive';
    report.reasons = ['the target\u001b[31m said so\u2066'];
    // A requirement whose status no longer follows: its id comes back in the inconsistency.
    report.requirements[0]!.id = 'DUP-\u001b[8mHIDDEN';
    report.requirements[0]!.status = 'skipped';
    const result = await runCli(['verify-report', folderWith(reportText(seal(report)), { signature: false }), '--allow-unsigned']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'svc-conformance 9.9.9\\x1b[2J, profile v1.3; inconclusive: the target\\x1b[31m said so\\u2066 (http://evil.test/\\x1b]0;pwned\\x07\\u202eedoc, sandbox)',
    );
    expect(result.stdout).toContain('DUP-\\x1b[8mHIDDEN');
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });
});
