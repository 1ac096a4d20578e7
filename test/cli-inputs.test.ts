import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MERCHANT_A } from '../sandbox/tenants.js';
import { runCli } from './cli-harness.js';

/**
 * Every input a user controls ends in exit 2 and one line naming it, never exit 70 ("internal
 * error") and never a stack. Base URLs here are loopback or unusable: nothing leaves the machine.
 */
const dir = mkdtempSync(join(tmpdir(), 'svc-inputs-'));
const file = (name: string, content: string | Buffer): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const merchant = { apiKey: MERCHANT_A.apiKey, secretKey: MERCHANT_A.secretKey, walletId: MERCHANT_A.walletId };
const config = (baseUrl: unknown, extra: object = {}): string =>
  file(`config-${Math.random().toString(36).slice(2)}.json`, JSON.stringify({ baseUrl, environment: 'sandbox', merchant, ...extra }));
const deep = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
mkdirSync(join(dir, 'a-directory'));

const BAD_URLS = [
  'http://127.0.0.1:99999',
  'http://127.0.0.1:80:80',
  'http://127.0.0.1:0',
  'http://',
  'http:///x',
  'http://[::1',
  'http://127.0.0.1 :4010',
  'ftp://127.0.0.1',
  'not a url',
  '',
  ' ',
  'http://127.0.0.1:-1',
  'http://127.0.0.1:4010/?q=#',
  42,
  null,
  ['http://127.0.0.1'],
];

const CASES: Array<[string, string[], Record<string, string>?]> = [
  ...BAD_URLS.map((url): [string, string[]] => [
    `run with baseUrl ${JSON.stringify(url)}`,
    ['run', '--config', config(url), '--report-dir', join(dir, 'r')],
  ]),
  ...BAD_URLS.filter((u): u is string => typeof u === 'string').map((url): [string, string[], Record<string, string>] => [
    `run with SVC_BASE_URL=${JSON.stringify(url)}`,
    ['run', '--report-dir', join(dir, 'r')],
    { SVC_BASE_URL: url, SVC_API_KEY: merchant.apiKey, SVC_SECRET_KEY: merchant.secretKey, SVC_WALLET_ID: merchant.walletId },
  ]),
  ['run with a config nested 100,000 deep', ['run', '--config', file('deep.json', deep(100_000))]],
  ['run with a config nested 40 deep', ['run', '--config', file('deep40.json', deep(40))]],
  ['run with a config that is not JSON', ['run', '--config', file('bad.json', '{"baseUrl": ')]],
  ['run with a config that is an array', ['run', '--config', file('array.json', '[]')]],
  ['run with a config that is null', ['run', '--config', file('null.json', 'null')]],
  ['run with a config that is not UTF-8', ['run', '--config', file('latin1.json', Buffer.from([0x7b, 0xff, 0x7d]))]],
  ['run with a config that is a directory', ['run', '--config', join(dir, 'a-directory')]],
  ['run with a config that does not exist', ['run', '--config', join(dir, 'missing.json')]],
  [
    'run with merchant of the wrong type',
    ['run', '--config', file('types.json', JSON.stringify({ baseUrl: 'http://127.0.0.1:1', environment: 'sandbox', merchant: 'x' }))],
  ],
  [
    'run with a huge string in the config',
    ['run', '--config', config('http://127.0.0.1:1', { merchant: { ...merchant, apiKey: 'k'.repeat(1_000_000) } })],
  ],
  ...['-1', '1e3', '0x10', '99999999999', 'NaN', '', '1.5'].flatMap(
    (n): Array<[string, string[]]> => [
      [`run --seed ${JSON.stringify(n)}`, ['run', '--seed', n]],
      [`run --runs ${JSON.stringify(n)}`, ['run', '--runs', n]],
      [`run --timeout ${JSON.stringify(n)}`, ['run', '--timeout', n]],
      [`sign --timestamp ${JSON.stringify(n)}`, ['sign', '--secret', 'sk_test_x', '--timestamp', n, '--file', file('empty.json', '')]],
      [`serve --port ${JSON.stringify(n)}`, ['serve', '--port', n]],
      [`serve --tolerance ${JSON.stringify(n)}`, ['serve', '--tolerance', n]],
      [`verify-client --timeout ${JSON.stringify(n)}`, ['verify-client', '--timeout', n, '--', 'true']],
    ],
  ),
  ['run --unknown-option', ['run', '--no-such-option']],
  ['run --only with no value', ['run', '--only']],
  ['sign without a secret', ['sign', '--timestamp', '1', '--file', file('b.json', '{}')]],
  [
    'sign a body nested 100,000 deep',
    ['sign', '--secret', 'sk_test_x', '--timestamp', '1', '--file', file('deep-body.json', deep(100_000))],
  ],
  ['sign a file that is a directory', ['sign', '--secret', 'sk_test_x', '--timestamp', '1', '--file', join(dir, 'a-directory')]],
  [
    'diagnose a body nested 100,000 deep',
    ['diagnose', '--secret', 'sk_test_x', '--timestamp', '1', '--signature', 'ab', '--file', file('deep-body2.json', deep(100_000))],
  ],
  [
    'diagnose a request file of garbage',
    ['diagnose', '--secret', 'sk_test_x', '--request', file('garbage.http', Buffer.from([0, 1, 2, 0xff]))],
  ],
  ['diagnose an empty request file', ['diagnose', '--secret', 'sk_test_x', '--request', file('empty.http', '')]],
  ['replay with a config nested 100,000 deep', ['replay', '--config', join(dir, 'deep.json'), '--path', '/x']],
  ['replay with baseUrl port 99999', ['replay', '--config', config('http://127.0.0.1:99999'), '--path', '/x']],
  ['replay with a body nested 100,000 deep', ['replay', '--config', config('http://127.0.0.1:1'), '--path', '/x', '--body', deep(100_000)]],
  ['replay with a path that is not a path', ['replay', '--config', config('http://127.0.0.1:1'), '--path', 'http://example.test/x']],
  ['serve --host that is not an address', ['serve', '--host', 'no such host', '--port', '0']],
  [
    'serve --config-out into a directory that does not exist',
    ['serve', '--port', '0', '--config-out', join(dir, 'missing', 'deeper', 'c.json')],
  ],
  ['verify-client with a program that does not exist', ['verify-client', '--', join(dir, 'no-such-program')]],
  ['verify-client --scenario unknown', ['verify-client', '--scenario', 'nope', '--', 'true']],
];

/** The inputs above that are not mistakes: each with the exit it gets. Every other one is exit 2. */
const NOT_REFUSED: Record<string, number> = {
  // A whole number of seconds, however far ahead: sign computes what it is given (a server's window is not its business).
  'sign --timestamp "99999999999"': 0,
};

describe('every user input ends in a clear line, never an internal error', () => {
  it.concurrent.each(CASES)('%s', async (name, argv, env) => {
    const result = await runCli(argv, { env: env ?? {}, cwd: dir });
    expect(result.code, result.stderr).toBe(NOT_REFUSED[name] ?? 2);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at [\w.<]+ \(/);
    if (result.code === 2) {
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr.length).toBeLessThan(600);
    }
  });
});

describe('a file that is not JSON is placed by line and column, never quoted', () => {
  // JSON.parse's message quotes the text around the error: here, the secret.
  const leaky = '{\n  "baseUrl": "http://127.0.0.1:1",\n  "merchant": { "secretKey": sk_live_TOPSECRET }\n}\n';
  it.each<[string, (path: string) => string[], string]>([
    [
      'run --config',
      (path) => ['run', '--config', path],
      `svc-conformance run: config ${join(dir, 'leaky.json')} is not JSON (line 3, column 30); see P-CFG for its shape (svc-conformance serve --config-out writes an example)\n`,
    ],
    [
      'replay --file',
      (path) => ['replay', '--config', config('http://127.0.0.1:1'), '--path', '/x', '--file', path],
      'svc-conformance replay: the body is not JSON (line 3, column 30); pass --raw to send it as it is\n',
    ],
    [
      'sign --file',
      (path) => ['sign', '--secret', 'sk_test_x', '--timestamp', '1', '--file', path],
      `svc-conformance sign: the body in ${join(dir, 'leaky.json')} is not JSON (line 3, column 30); sign signs JSON bodies only\n`,
    ],
  ])('%s', async (_name, argv, expected) => {
    const result = await runCli(argv(file('leaky.json', leaky)), { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(expected);
  });

  it('run --config of a truncated file places the end of the file', async () => {
    const result = await runCli(['run', '--config', file('truncated.json', '{"baseUrl": ')], { cwd: dir });
    expect(result.stderr).toMatch(/truncated\.json is not JSON \(line 1, column 13\)/);
  });
});

describe('a config written with a byte-order mark (as some Windows editors save JSON) is read as the JSON it is', () => {
  it('run --config of a BOM-prefixed file goes on to judge the config, not "not JSON"', async () => {
    const text = JSON.stringify({ baseUrl: 'http://127.0.0.1:1?k=1', environment: 'sandbox', merchant });
    const result = await runCli(['run', '--config', file('bom.json', '\uFEFF' + text), '--report-dir', join(dir, 'r')], { cwd: dir });
    // The file is parsed: what is refused is its base URL's query, a later check than the JSON's.
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bom\.json.*query/);
    expect(result.stderr).not.toMatch(/not JSON/);
  });

  it('an invalid config from SVC_* variables alone says they "are" invalid', async () => {
    const result = await runCli(['run', '--report-dir', join(dir, 'r')], {
      cwd: dir,
      env: {
        SVC_BASE_URL: 'http://127.0.0.1:1',
        SVC_API_KEY: merchant.apiKey,
        SVC_SECRET_KEY: merchant.secretKey,
        SVC_WALLET_ID: merchant.walletId,
        SVC_ENVIRONMENT: 'staging-ish',
      },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/the SVC_\* environment variables are invalid: /);
  });
});

describe('a base URL with a query or fragment is refused, the query not shown', () => {
  it.each<[string, string, string]>([
    ['a query', 'http://127.0.0.1:1/gw/?k=sk_test_HIDDEN', 'http://127.0.0.1:1/gw'],
    ['a fragment', 'http://127.0.0.1:1#sk_test_HIDDEN', 'http://127.0.0.1:1'],
    ['an empty query', 'http://127.0.0.1:1/?', 'http://127.0.0.1:1'],
  ])('baseUrl with %s', async (_what, baseUrl, base) => {
    const path = config(baseUrl);
    const fromFile = await runCli(['run', '--config', path, '--report-dir', join(dir, 'r')], { cwd: dir });
    expect(fromFile).toMatchObject({ code: 2, stdout: '' });
    expect(fromFile.stderr).toBe(
      `svc-conformance run: "baseUrl" in config ${path} has a query or fragment after ${base}: operation paths are appended to the base URL, so give it without "?…" or "#…", e.g. ${base}\n`,
    );
    const fromEnv = await runCli(['run', '--report-dir', join(dir, 'r')], {
      cwd: dir,
      env: { SVC_BASE_URL: baseUrl, SVC_API_KEY: merchant.apiKey, SVC_SECRET_KEY: merchant.secretKey, SVC_WALLET_ID: merchant.walletId },
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/^svc-conformance run: SVC_BASE_URL has a query or fragment after/);
    expect(fromEnv.stderr).not.toContain('HIDDEN');
  });
});

describe('https:// to a server that speaks plain HTTP', () => {
  it("says the server does not speak TLS and suggests http://, without OpenSSL's text", async () => {
    const server = createServer((_request, response) => response.end('plain'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await runCli(['run', '--config', config(`https://${host}`), '--report-dir', join(dir, 'tls')], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `the target could not be reached: the server at https://${host.replace(/\./g, '\\.')} does not speak TLS: did you mean http://${host.replace(/\./g, '\\.')}\\?`,
        ),
      );
      expect(result.stderr).not.toMatch(/SSL routines|openssl/i);
    } finally {
      server.close();
    }
  });
});

describe('a flat config names the section each key belongs under', () => {
  it.each<[string, object, string]>([
    // The README's CI example once listed "apiKey, walletId" as if they were top-level keys.
    [
      'merchant keys at the top level',
      { apiKey: merchant.apiKey, walletId: merchant.walletId },
      '"apiKey" where it belongs under "merchant", "walletId" where it belongs under "merchant": P-CFG nests them, e.g. { "merchant": { "apiKey": … } }',
    ],
    [
      'a webhooks key at the top level',
      { merchant, listen: '127.0.0.1:0' },
      '"listen" where it belongs under "webhooks": P-CFG nests them, e.g. { "webhooks": { "listen": … } }',
    ],
    [
      'a profile key at the top level',
      { merchant, concurrency: 4 },
      '"concurrency" where it belongs under "profile": P-CFG nests them, e.g. { "profile": { "concurrency": … } }',
    ],
  ])('%s', async (_what, keys, advice) => {
    const path = file(
      `flat-${Math.random().toString(36).slice(2)}.json`,
      JSON.stringify({ baseUrl: 'http://127.0.0.1:1', environment: 'sandbox', ...keys }),
    );
    const result = await runCli(['run', '--config', path], { cwd: dir, env: { SVC_SECRET_KEY: merchant.secretKey } });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(`svc-conformance run: config ${path} has ${advice}\n`);
  });

  it("a key that belongs nowhere keeps the schema's message", async () => {
    const result = await runCli(['run', '--config', config('http://127.0.0.1:1', { colour: 'blue' })], { cwd: dir });
    expect(result.stderr).toMatch(/must NOT have additional properties \("colour"\)/);
  });
});

describe('run --har naming a folder', () => {
  it('is exit 2 with one line before anything starts, not exit 0 with no HAR after the run', async () => {
    const result = await runCli(['run', '--har', join(dir, 'a-directory'), '--report-dir', join(dir, 'har-reports')], { cwd: dir });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `svc-conformance run: --har ${join(dir, 'a-directory')} is a folder; give a file name, e.g. --har ${join(dir, 'a-directory', 'run.har')}\n`,
    });
  });
});
