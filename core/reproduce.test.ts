import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Exchange } from './exchange.js';
import { curlLine, RECEIVER_COMMAND, replayLine, scriptPlan, shellQuote, timestampWord, triggerLine } from './reproduce.js';
import type { Signing } from './exchange.js';

const SIGNATURE = '63987757dfd5196c8eb2547efbdf01c71052e570bae390d9791becf2ea504f4d';
const HEX64 = /[0-9a-f]{64}/i;

function exchange(body: string, overrides: Partial<Exchange['request']> = {}): Exchange {
  return {
    label: 'create order',
    request: {
      method: 'POST',
      url: 'https://pay.example/api/v3/order/create',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'X-API-KEY': 'pk_test_demo',
        'X-TIMESTAMP': '1732147200',
        'X-SIGNATURE': '[redacted]',
      },
      body,
      ...overrides,
    },
    response: { status: 401, headers: {}, body: '{}' },
    ms: 12,
  };
}

/**
 * Runs a generated command in bash with `curl` and `svc-conformance` replaced by functions that
 * print their arguments NUL-separated: what the shell would hand the real programs.
 */
function argvOf(command: string): string[] {
  const script = [`curl() { printf '%s\\0' "$@"; }`, `svc-conformance() { printf '%s\\0' "$@"; }`, `SIG=computed-signature`, command].join(
    '\n',
  );
  const result = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\0').slice(0, -1);
}

const hasBash = existsSync('/bin/bash') || existsSync('/usr/bin/bash');

const bodies: Array<[string, string]> = [
  ['canonical JSON', '{"order_id":"A-1001","order_note":250.5}'],
  ['single quotes', `{"customer":{"name":"O'Brien"},"note":"it's ''quoted'''"}`],
  ['newlines and tabs', '{"note":"line one\nline two\r\n\tend"}\n'],
  ['unicode and emoji', '{"name":"Zoë Brandt","city":"東京","mood":"🙂"}'],
  ['shell metacharacters', '{"x":"$(rm -rf /) `id` $HOME ${PATH} \\\\ \\" ! ; | & > <"}'],
  ['a backslash before a quote', `{"x":"\\\\'"}`],
  ['empty', ''],
];

describe('shellQuote', () => {
  it.each([
    ['abc', 'abc'],
    ['/api/v3/order', '/api/v3/order'],
    ['', `''`],
    ['a b', `'a b'`],
    [`it's`, `'it'\\''s'`],
    ['$HOME', `'$HOME'`],
  ])('%j → %s', (input, quoted) => {
    expect(shellQuote(input)).toBe(quoted);
  });
});

describe('curlLine', () => {
  it.skipIf(!hasBash).each(bodies)('the shell hands curl the body byte for byte: %s', (_name, body) => {
    const argv = argvOf(curlLine(exchange(body)));
    const data = argv.indexOf('--data-raw');
    expect(data).toBeGreaterThan(0);
    expect(argv[data + 1]).toBe(body);
    expect(argv.slice(0, 4)).toEqual(['-sS', '-i', '-X', 'POST']);
    expect(argv[4]).toBe('https://pay.example/api/v3/order/create');
  });

  it.skipIf(!hasBash)('sends every header as recorded, with X-SIGNATURE taken from $SIG', () => {
    const argv = argvOf(curlLine(exchange('{}')));
    const headers = argv.filter((_, i) => argv[i - 1] === '-H');
    expect(headers).toEqual([
      'Content-Type: application/json',
      'Accept: application/json',
      'X-API-KEY: pk_test_demo',
      'X-TIMESTAMP: 1732147200',
      'X-SIGNATURE: computed-signature',
    ]);
  });

  it('explains how to compute the signature, with the timestamp that was sent', () => {
    const lines = curlLine(exchange('{}')).split('\n');
    expect(lines).toContain('# SIG=$(svc-conformance sign --timestamp 1732147200 --file body.json)');
    const firstCommand = lines.findIndex((line) => !line.startsWith('#'));
    expect(lines[firstCommand]).toMatch(/^curl /);
    expect(lines.slice(0, firstCommand).every((line) => line.startsWith('# '))).toBe(true);
  });

  it('never carries a signature, even when handed an unredacted one in any header case', () => {
    for (const name of ['X-SIGNATURE', 'x-signature', 'X-Signature']) {
      const line = curlLine(exchange('{"a":1}', { headers: { 'X-TIMESTAMP': '1732147200', [name]: SIGNATURE } }));
      expect(line).not.toMatch(HEX64);
      expect(line).toContain(`-H "${name}: $SIG"`);
    }
  });

  it('leaves the comment out when no signature was sent, and notes redacted secrets and cut bodies', () => {
    const unsigned = curlLine(exchange('{"key":"[redacted:secret]"}… [120 more characters]', { headers: { 'X-API-KEY': 'pk_test_demo' } }));
    expect(unsigned).not.toContain('svc-conformance sign');
    expect(unsigned).toMatch(/^# Values shown as \[redacted…\]/m);
    expect(unsigned).toMatch(/^# The evidence kept only the start/m);
  });

  it.skipIf(!hasBash)('keeps a GET without a body free of --data-raw, and a POST without one explicit', () => {
    const get = argvOf(curlLine(exchange('', { method: 'GET', headers: {} })));
    expect(get).toEqual(['-sS', '-i', '-X', 'GET', 'https://pay.example/api/v3/order/create']);
    const post = argvOf(curlLine(exchange('', { headers: {} })));
    expect(post.slice(-2)).toEqual(['--data-raw', '']);
  });

  it.skipIf(!hasBash)('drops NUL, which no shell argument can hold, and says so', () => {
    const line = curlLine(exchange('{"a":"x\0y"}'));
    expect(line).toMatch(/^# The body held NUL bytes/m);
    const argv = argvOf(line);
    expect(argv[argv.indexOf('--data-raw') + 1]).toBe('{"a":"xy"}');
  });
});

describe('replayLine', () => {
  it.skipIf(!hasBash).each(bodies)('the shell hands replay the same method, path and body: %s', (_name, body) => {
    const argv = argvOf(replayLine(exchange(body), 'my config.json'));
    const expected = ['replay', '--config', 'my config.json', '--method', 'POST', '--path', '/api/v3/order/create'];
    expect(argv).toEqual(body === '' ? expected : [...expected, '--body', body]);
  });

  it('reads like the command a person would type', () => {
    expect(replayLine(exchange('{"order_id":"A-1"}'))).toBe(
      `svc-conformance replay --config CONFIG.json --method POST --path /api/v3/order/create --body '{"order_id":"A-1"}'`,
    );
  });

  it('keeps the query string and never includes a signature', () => {
    const line = replayLine(exchange('{}', { url: 'https://pay.example/api/v3/x?a=1&b=2', headers: { 'X-SIGNATURE': SIGNATURE } }));
    expect(line).toContain(`--path '/api/v3/x?a=1&b=2'`);
    expect(line).not.toMatch(HEX64);
  });
});

/** What bash makes of a word with NOW set: the X-TIMESTAMP a rebuilt line sends. */
function evaluated(word: string, now: number): string {
  const result = spawnSync('bash', ['-c', `NOW=${now}; printf %s ${word}`], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe('timestampWord', () => {
  const SENT_AT = 1732147200;
  const LATER = SENT_AT + 3600;
  it.skipIf(!hasBash).each([
    ['the moment it was sent', '1732147200', '1732150800'],
    ['30 s old', '1732147170', '1732150770'],
    ['window + 600 s ahead', '1732148100', '1732151700'],
    ['milliseconds', '1732147200250', '1732150800250'],
    ['letters after it', '1732147200abc', '1732150800abc'],
    ['a sign before it, read a second before sending', '+1732147199', '+1732150799'],
    ['fractional', '1732147200.5', '1732150800.5'],
    ['hexadecimal', `0x${SENT_AT.toString(16)}`, `0x${LATER.toString(16)}`],
    ['empty', '', ''],
    ['no time in it', 'yesterday $HOME', 'yesterday $HOME'],
  ])('%s: %j stays as far from the moment the line runs', (_name, sent, atLater) => {
    expect(evaluated(timestampWord(sent, SENT_AT), LATER)).toBe(atLater);
  });
});

describe('curlLine of a request the kit signed', () => {
  const SECRET = 'sk_test_never_in_a_line';
  const signed = (signing: Partial<Signing>, headers: Record<string, string> = {}): Exchange => ({
    ...exchange('{"a":1}', {
      headers: { 'X-API-KEY': 'pk_test_demo', 'X-TIMESTAMP': '1732147200', 'X-SIGNATURE': '[redacted]', ...headers },
    }),
    signing: { sentAt: 1732147200, timestamp: '1732147200', secret: 'merchant', deliberate: false, ...signing },
  });
  /** The X-SIGNATURE and X-TIMESTAMP the line sends when run at NOW with the secret in its variable. */
  function sentBy(line: string, now: number): { signature: string | undefined; timestamp: string | undefined } {
    const script = [`date() { echo ${now}; }`, 'curl() { printf \'%s\\0\' "$@"; }', line].join('\n');
    const result = spawnSync('bash', ['-c', script], {
      encoding: 'utf8',
      env: { ...process.env, SVC_SECRET_KEY: SECRET, SVC_OTHER_SECRET_KEY: 'sk_test_other' },
    });
    expect(result.stderr).toBe('');
    const headers = result.stdout.split('\0').filter((_, i, all) => all[i - 1] === '-H');
    const value = (name: string) => headers.find((h) => h.startsWith(`${name}: `))?.slice(name.length + 2);
    return { signature: value('X-SIGNATURE'), timestamp: value('X-TIMESTAMP') };
  }
  const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');
  const NOW = 1732150800;

  it.skipIf(!hasBash)('signs the body and a fresh X-TIMESTAMP with the secret from its variable, which the line never holds', () => {
    const line = curlLine(signed({}));
    expect(line).not.toContain(SECRET);
    expect(sentBy(line, NOW)).toEqual({ signature: hmac(SECRET, `{"a":1}${NOW}`), timestamp: String(NOW) });
  });

  it.skipIf(!hasBash).each([
    ['cut to 32 characters', { deliberate: true, edit: { truncatedTo: 32 } }, (right: string) => right.slice(0, 32)],
    [
      'its last character changed',
      { deliberate: true, edit: 'last-character-changed' },
      (right: string) => right.slice(0, -1) + (right.endsWith('0') ? '1' : '0'),
    ],
    ['another secret', { deliberate: true, secret: 'otherMerchant' }, () => hmac('sk_test_other', `{"a":1}${NOW}`)],
    ['a made-up secret', { deliberate: true, secret: { madeUp: 'sk_test_made_up' } }, () => hmac('sk_test_made_up', `{"a":1}${NOW}`)],
    ['another body signed', { deliberate: true, signedBody: '{"a":2}' }, () => hmac(SECRET, `{"a":2}${NOW}`)],
    ['the body alone signed', { deliberate: true, signedTimestamp: '' }, () => hmac(SECRET, '{"a":1}')],
    [
      'signed at t, sent at t-5',
      { deliberate: true, timestamp: '1732147195', signedTimestamp: '1732147200' },
      () => hmac(SECRET, `{"a":1}${NOW}`),
    ],
  ] as Array<[string, Partial<Signing>, (right: string) => string]>)('rebuilds the defect for now: %s', (_name, signing, expected) => {
    const sent = sentBy(curlLine(signed(signing)), NOW);
    expect(sent.signature).toBe(expected(hmac(SECRET, `{"a":1}${sent.timestamp}`)));
  });

  it.skipIf(!hasBash).each([
    ['merchant', {}, 'SVC_SECRET_KEY'],
    ['another merchant', { deliberate: true, secret: 'otherMerchant' }, 'SVC_OTHER_SECRET_KEY'],
    [
      'another merchant, its last character changed',
      { deliberate: true, secret: 'otherMerchant', edit: 'last-character-changed' },
      'SVC_OTHER_SECRET_KEY',
    ],
    [
      'the other environment, cut short',
      { deliberate: true, secret: 'otherEnvironment', edit: { truncatedTo: 32 } },
      'SVC_OTHER_ENV_SECRET_KEY',
    ],
  ] as Array<[string, Partial<Signing>, string]>)(
    'stops, naming the variable, when the secret of %s is not set: nothing is sent signed with an empty key',
    (_name, signing, variable) => {
      const line = curlLine(signed(signing));
      for (const env of [{}, { [variable]: '' }]) {
        const script = [`date() { echo ${NOW}; }`, 'curl() { echo CURL-RAN; }', line].join('\n');
        const others = Object.fromEntries(
          ['SVC_SECRET_KEY', 'SVC_OTHER_SECRET_KEY', 'SVC_OTHER_ENV_SECRET_KEY']
            .filter((v) => v !== variable)
            .map((v) => [v, 'sk_test_set']),
        );
        const inherited = { ...process.env };
        delete inherited[variable];
        const result = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...inherited, ...others, ...env } });
        expect(result.stdout).not.toContain('CURL-RAN');
        expect(result.status).not.toBe(0);
        expect(result.stderr).toContain(`${variable}: set ${variable} to `);
      }
    },
  );

  it.skipIf(!hasBash)('gives a created record a fresh id each run, a number staying a number, and signs the body it sends', () => {
    for (const [body, field] of [
      ['{"order_id":"A-1","order_amount":"1.00"}', 'order_id'],
      ['{"order_id":12345,"order_amount":"1.00"}', 'order_id'],
      ['{"payout_order_id":"PO-1","amount":1}', 'payout_order_id'],
    ] as const) {
      const line = curlLine({ ...signed({}), request: { ...signed({}).request, body } });
      const run = () => {
        const result = spawnSync('bash', ['-c', [`date() { echo ${NOW}; }`, 'curl() { printf \'%s\\0\' "$@"; }', line].join('\n')], {
          encoding: 'utf8',
          env: { ...process.env, SVC_SECRET_KEY: SECRET },
        });
        const argv = result.stdout.split('\0');
        const sent = argv[argv.indexOf('--data-raw') + 1]!;
        expect(argv).toContain(`X-SIGNATURE: ${hmac(SECRET, `${sent}${NOW}`)}`);
        return (JSON.parse(sent) as Record<string, unknown>)[field];
      };
      const [first, second] = [run(), run()];
      expect(first).not.toEqual(second);
      expect(typeof first).toBe(typeof JSON.parse(body)[field]);
      if (typeof first === 'string') expect(first.startsWith(`${JSON.parse(body)[field]}-`)).toBe(true);
    }
  });

  it.skipIf(!hasBash)(
    "stamps a request signed right at NOW, not the second before it that the kit read its clock: pasted at once it never repeats the run's timestamp",
    () => {
      const line = curlLine(signed({ sentAt: 1732147201, timestamp: '1732147200' }));
      // Run the second after the kit sent it: NOW-1 would be the run's own timestamp for the same body, a replay.
      expect(sentBy(line, 1732147201).timestamp).toBe('1732147201');
    },
  );

  it('keeps the id of a create whose failure was its 409, and says why', () => {
    const { error: _error, ...base } = signed({});
    const duplicate: Exchange = {
      ...base,
      request: { ...base.request, body: '{"order_id":"A-1","order_amount":"1.00"}' },
      response: { status: 409, headers: {}, body: '{}' },
    };
    const line = curlLine(duplicate);
    expect(line).toContain(`BODY='{"order_id":"A-1","order_amount":"1.00"}'`);
    expect(line).toMatch(/same order_id again on purpose/);
  });

  it('keeps a signature made another way out, and says the line does not send that defect', () => {
    const line = curlLine(signed({ deliberate: true, edit: 'replaced' }));
    expect(line).toMatch(/does not send that defect/);
    expect(line).not.toContain('openssl');
  });
});

describe('scriptPlan: what a curl script sends beside the failing request', () => {
  const signing: Signing = { sentAt: 1732147200, timestamp: '1732147200', secret: 'merchant', deliberate: false };
  const create = (body: string, overrides: Partial<Signing> = {}): Exchange => ({
    ...exchange(body),
    signing: { ...signing, ...overrides },
  });
  const order = '{"order_id":"A-1","order_amount":"1.00","order_note":"1"}';

  it('sends the same create, signed right, at once with it (a race); a second create changed on purpose, or refused, in turn before it', () => {
    const raced = create('{"order_id":"A-1","order_amount":"1.00","order_note":"2"}');
    expect(scriptPlan(create(order), [raced])).toEqual({ before: [], alongside: [raced] });
    const otherAmount = create('{"order_id":"A-1","order_amount":"999.99"}');
    expect(scriptPlan(create(order), [otherAmount])).toEqual({ before: [otherAmount], alongside: [] });
    const refused = create(order, { deliberate: true, edit: 'last-character-changed' });
    expect(scriptPlan(create(order), [refused])).toEqual({ before: [refused], alongside: [] });
    const otherMerchant = create(order, { secret: 'otherMerchant' });
    expect(scriptPlan(create(order), [otherMerchant])).toEqual({ before: [otherMerchant], alongside: [] });
  });

  it('makes a fresh record first for an Order Cancel, or says only the run line reproduces it', () => {
    const cancel = (overrides: Partial<Signing> = {}): Exchange => ({
      ...create('{"order_id":"A-1"}', overrides),
      request: { ...exchange('{"order_id":"A-1"}').request, url: 'https://pay.example/api/v3/pg/order/cancel' },
    });
    const maker = create(order);
    const again = cancel();
    expect(scriptPlan(cancel(), [maker, again])).toEqual({ before: [maker], alongside: [again] });
    expect(scriptPlan(cancel({ deliberate: true, edit: 'last-character-changed' }), [again, maker])).toEqual({
      before: [maker],
      alongside: [],
    });
    expect(scriptPlan(cancel(), [again])).toEqual({ before: [], alongside: [], recordChanged: true });
    expect(curlLine(cancel(), scriptPlan(cancel(), [again]))).toMatch(
      /^# The run changed the record .* only the run line below reproduces the failure\.$/m,
    );
    // A read changes nothing: it is sent again alone.
    const status = { ...cancel(), request: { ...cancel().request, url: 'https://pay.example/api/v3/pg/order/status' } };
    expect(scriptPlan(status, [maker])).toEqual({ before: [], alongside: [] });
  });
});

describe('triggerLine', () => {
  it('names the event and the config', () => {
    expect(triggerLine('payout.failed', 'out/sandbox.json')).toMatch(
      /^svc-conformance trigger payout\.failed --config out\/sandbox\.json --to http:\/\/127\.0\.0\.1:4020\/webhooks$/m,
    );
    expect(triggerLine(undefined)).toMatch(/^svc-conformance trigger EVENT --config CONFIG\.json --to /m);
    // The receiver to start first listens where --to points.
    expect(triggerLine('payout.failed')).toContain(`# ${RECEIVER_COMMAND}\n`);
    expect(RECEIVER_COMMAND).toContain('.listen(4020, "127.0.0.1")');
  });

  it('its receiver, run as written (on a free port here), prints the method, headers and body of a delivery and answers 200', async () => {
    // Only the port changes: 0, and the one given printed, so the test holds no fixed port.
    const command = RECEIVER_COMMAND.replace(
      '.listen(4020, "127.0.0.1")',
      '.listen(0, "127.0.0.1", function () { console.log("PORT", this.address().port); })',
    );
    expect(command).not.toBe(RECEIVER_COMMAND);
    const receiver = spawn('bash', ['-c', `exec ${command}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let out = '';
      receiver.stdout.on('data', (chunk) => (out += chunk));
      // Resolves on the output as it comes; the real-time bound only ends a test that has failed.
      const printed = (done: (text: string) => boolean) =>
        new Promise<void>((resolve, reject) => {
          const look = () => {
            if (!done(out)) return;
            clearTimeout(bound);
            receiver.stdout.off('data', look);
            resolve();
          };
          const bound = setTimeout(() => {
            receiver.stdout.off('data', look);
            reject(new Error(`the receiver printed only: ${out}`));
          }, 10_000);
          receiver.stdout.on('data', look);
          look();
        });
      await printed((text) => /PORT \d+/.test(text));
      const port = /PORT (\d+)/.exec(out)![1];
      const answer = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        headers: { 'X-EVENT-ID': 'evt_1' },
        body: '{"event":"payout.failed"}',
      });
      expect(answer.status).toBe(200);
      await printed((text) => text.includes('payout.failed'));
      expect(out).toContain('POST /webhooks');
      expect(out).toContain("'x-event-id': 'evt_1'");
      expect(out).toContain('{"event":"payout.failed"}');
    } finally {
      receiver.kill('SIGTERM');
    }
  });
});
