import { describe, expect, it } from 'vitest';
import { authHeaders, CaptureError, type CapturedRequest, headerValue, parseCapturedRequest } from './capture.js';

const BODY = '{"amount":"100.00","order_id":"ORD-1"}';

function captureError(text: string): CaptureError {
  try {
    parseCapturedRequest(text);
  } catch (error) {
    if (error instanceof CaptureError) return error;
    throw error;
  }
  throw new Error('expected a CaptureError');
}

describe('parseCapturedRequest: HTTP/1.1 text', () => {
  const cases: Array<{ name: string; text: string; expected: Partial<CapturedRequest> }> = [
    {
      name: 'CRLF line endings; the blank line is not part of the body',
      text: `POST /api/v3/pg/order/create HTTP/1.1\r\nHost: api.example.test\r\nX-API-KEY: pk_test_1\r\n\r\n${BODY}`,
      expected: {
        format: 'http',
        method: 'POST',
        target: '/api/v3/pg/order/create',
        headers: [
          ['Host', 'api.example.test'],
          ['X-API-KEY', 'pk_test_1'],
        ],
        body: BODY,
      },
    },
    {
      name: 'bare LF line endings',
      text: `post /api/v3/banking/payment/status HTTP/1.1\nContent-Type: application/json\n\n${BODY}`,
      expected: { method: 'POST', headers: [['Content-Type', 'application/json']], body: BODY },
    },
    {
      name: 'mixed-case header names are kept as written',
      text: `POST / HTTP/1.1\nx-Api-Key: k\nX-SIGNATURE: s\nx-timestamp: 1700000000\n\n{}`,
      expected: {
        headers: [
          ['x-Api-Key', 'k'],
          ['X-SIGNATURE', 's'],
          ['x-timestamp', '1700000000'],
        ],
      },
    },
    {
      name: 'a body with blank lines, CRLFs and a trailing newline is kept byte-exact',
      text: 'POST / HTTP/1.1\r\n\r\n{\r\n\r\n  "a": 1\n}\n\n',
      expected: { body: '{\r\n\r\n  "a": 1\n}\n\n' },
    },
    {
      name: 'Content-Length shorter than the rest cuts the body',
      text: `POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}\r\n\r\nleftover`,
      expected: { body: '{}' },
    },
    {
      name: 'Content-Length counts UTF-8 bytes',
      text: `POST / HTTP/1.1\nContent-Length: 13\n\n{"n":"é€"}junk`,
      expected: { body: '{"n":"é€"}' },
    },
    {
      name: 'Content-Length longer than the rest keeps the rest',
      text: `POST / HTTP/1.1\nContent-Length: 99\n\n{}`,
      expected: { body: '{}' },
    },
    {
      name: 'chunked body is decoded (CRLF)',
      text: 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n{"a":"é\r\n4;ext=1\r\nb"}\n\r\n0\r\nTrailer: x\r\n\r\n',
      expected: { body: '{"a":"éb"}\n' },
    },
    {
      name: 'chunked body pasted with bare LFs',
      text: 'POST / HTTP/1.1\nTransfer-Encoding: Chunked\n\n2\n{}\n0\n\n',
      expected: { body: '{}' },
    },
    {
      name: 'no blank line after the headers: empty body',
      text: 'GET /status HTTP/1.1\r\nHost: h\r\n',
      expected: { method: 'GET', target: '/status', headers: [['Host', 'h']], body: '' },
    },
    {
      name: 'obs-fold continuation lines are joined',
      text: 'POST / HTTP/1.1\nX-Note: first\n  second\n\tthird\nX-SIGNATURE: s\n\n',
      expected: {
        headers: [
          ['X-Note', 'first second third'],
          ['X-SIGNATURE', 's'],
        ],
      },
    },
    {
      name: 'leading blank lines and an absolute-form target',
      text: '\n\nPOST https://api.example.test/api/v3/pg/order/create HTTP/1.1\nA: b\n\nx',
      expected: { target: 'https://api.example.test/api/v3/pg/order/create', body: 'x' },
    },
    {
      name: 'a header value may be empty or contain colons',
      text: 'POST / HTTP/1.1\nX-Empty:\nReferer: https://a.test:8443/x\n\n',
      expected: {
        headers: [
          ['X-Empty', ''],
          ['Referer', 'https://a.test:8443/x'],
        ],
      },
    },
  ];
  it.each(cases)('$name', ({ text, expected }) => {
    expect(parseCapturedRequest(text)).toMatchObject(expected);
  });
});

describe('parseCapturedRequest: curl command lines', () => {
  const cases: Array<{ name: string; text: string; expected: Partial<CapturedRequest> }> = [
    {
      name: 'single-quoted JSON containing "',
      text: `curl -X POST https://api.example.test/api/v3/pg/order/create -H 'Content-Type: application/json' -d '${BODY}'`,
      expected: {
        format: 'curl',
        method: 'POST',
        target: 'https://api.example.test/api/v3/pg/order/create',
        headers: [['Content-Type', 'application/json']],
        body: BODY,
      },
    },
    {
      name: 'double-quoted JSON with \\" escapes',
      text: `curl "https://h.test/x" -H "X-TIMESTAMP: 1700000000" --data "{\\"a\\":\\"b\\\\c\\"}"`,
      expected: {
        method: 'POST',
        headers: [
          ['X-TIMESTAMP', '1700000000'],
          ['Content-Type', 'application/x-www-form-urlencoded'],
        ],
        body: '{"a":"b\\c"}',
      },
    },
    {
      name: "$'...' with \\u00e9 (as Chrome copies it)",
      text: `curl 'https://h.test/x' -H 'content-type: application/json' --data-raw $'{"name":"Ren\\u00e9e","note":"it\\'s"}'`,
      expected: { body: `{"name":"Renée","note":"it's"}` },
    },
    {
      name: 'line continuations (LF and CRLF) and a $ prompt',
      text: `$ curl --request POST \\\n  --url https://h.test/x \\\r\n  --header 'X-API-KEY: pk_test_1' \\\n  --data '{}'\n`,
      expected: {
        method: 'POST',
        target: 'https://h.test/x',
        headers: [
          ['X-API-KEY', 'pk_test_1'],
          ['Content-Type', 'application/x-www-form-urlencoded'],
        ],
        body: '{}',
      },
    },
    {
      name: '--json implies POST, Content-Type and Accept',
      text: `curl --json '${BODY}' https://h.test/x`,
      expected: {
        method: 'POST',
        headers: [
          ['Content-Type', 'application/json'],
          ['Accept', 'application/json'],
        ],
        body: BODY,
      },
    },
    {
      name: '--json headers give way to explicit ones; pieces are concatenated',
      text: `curl --json '{"a":' --json '1}' -H 'accept: */*' https://h.test/x`,
      expected: {
        headers: [
          ['accept', '*/*'],
          ['Content-Type', 'application/json'],
        ],
        body: '{"a":1}',
      },
    },
    {
      name: "attached -H'X-SIGNATURE: abc', -XPOST and --header=",
      text: `curl -XPOST -H'X-SIGNATURE: abc' --header='X-TIMESTAMP: 1' -H 'Content-Type: application/json' -d '' https://h.test/x`,
      expected: {
        method: 'POST',
        headers: [
          ['X-SIGNATURE', 'abc'],
          ['X-TIMESTAMP', '1'],
          ['Content-Type', 'application/json'],
        ],
        body: '',
      },
    },
    {
      name: 'multiple -d are joined with &',
      text: `curl -d a=1 --data-ascii b=2 --data-binary 'c=3' https://h.test/x`,
      expected: { method: 'POST', body: 'a=1&b=2&c=3' },
    },
    {
      name: 'inline data keeps its newlines and CRs',
      text: `curl -H 'Content-Type: application/json' -d $'{\\r\\n  "a": 1\\n}\\n' https://h.test/x`,
      expected: { body: '{\r\n  "a": 1\n}\n' },
    },
    {
      name: 'harmless flags and their values are skipped',
      text: `curl -sS -v -i -k -L --compressed --silent --fail --location --http1.1 -o out.json --max-time 10 -u user:pass -X post https://h.test/x --data-raw '@literal'`,
      expected: { method: 'POST', target: 'https://h.test/x', body: '@literal' },
    },
    {
      name: 'combined short flags ending in one that takes a value',
      text: `curl -sSX PUT https://h.test/x`,
      expected: { method: 'PUT', body: '' },
    },
    {
      name: 'no data: GET with no body',
      text: `curl https://h.test/x?a=1 -H 'X-API-KEY: k'`,
      expected: { method: 'GET', target: 'https://h.test/x?a=1', headers: [['X-API-KEY', 'k']], body: '' },
    },
    {
      name: '-G moves the data to the query string',
      text: `curl -G -d a=1 --data-urlencode 'q=a b&c' https://h.test/x`,
      expected: { method: 'GET', target: 'https://h.test/x?a=1&q=a%20b%26c', body: '' },
    },
    {
      name: "'Name;' sends an empty header and 'Name:' suppresses an implied one",
      text: `curl -H 'X-Empty;' -H 'Content-Type:' -d x https://h.test/x`,
      expected: { headers: [['X-Empty', '']], body: 'x' },
    },
    {
      name: 'a trailing pipe is not part of the command',
      text: `curl -s https://h.test/x | jq .`,
      expected: { target: 'https://h.test/x' },
    },
  ];
  it.each(cases)('$name', ({ text, expected }) => {
    expect(parseCapturedRequest(text)).toMatchObject(expected);
  });
});

describe('headerValue and authHeaders', () => {
  const request = (headers: Array<[string, string]>): CapturedRequest => ({
    format: 'http',
    method: 'POST',
    target: '/',
    headers,
    body: '',
  });

  it('matches names case-insensitively and takes the first name present', () => {
    const req = request([
      ['x-client-id', 'c'],
      ['X-Api-Key', 'k'],
    ]);
    expect(headerValue(req, 'X-API-KEY', 'x-client-id')).toBe('k');
    expect(headerValue(req, 'X-CLIENT-ID')).toBe('c');
    expect(headerValue(req, 'X-Missing')).toBeUndefined();
  });

  it.each([
    {
      name: 'upper-case names',
      headers: [
        ['X-API-KEY', 'k'],
        ['X-SIGNATURE', 's'],
        ['X-TIMESTAMP', 't'],
      ] as Array<[string, string]>,
      expected: { apiKey: 'k', signature: 's', timestamp: 't' },
    },
    {
      name: 'x-client-id when X-API-KEY is absent',
      headers: [
        ['x-client-id', 'c'],
        ['x-signature', 's'],
      ] as Array<[string, string]>,
      expected: { apiKey: 'c', signature: 's' },
    },
    {
      name: 'X-API-KEY wins over x-client-id',
      headers: [
        ['x-client-id', 'c'],
        ['x-api-key', 'k'],
      ] as Array<[string, string]>,
      expected: { apiKey: 'k' },
    },
    { name: 'nothing present', headers: [] as Array<[string, string]>, expected: {} },
  ])('$name', ({ headers, expected }) => {
    expect(authHeaders(request(headers))).toEqual(expected);
  });

  it('reads them from a whole capture', () => {
    const req = parseCapturedRequest(
      `curl https://h.test/x -H 'x-client-id: pk_test_1' -H 'X-Signature: ab' -H 'x-timestamp: 17' --json '{}'`,
    );
    expect(authHeaders(req)).toEqual({ apiKey: 'pk_test_1', signature: 'ab', timestamp: '17' });
  });
});

describe('errors', () => {
  it.each([
    { name: 'an empty string', text: '', code: 'SVC_CAPTURE_UNREADABLE', message: /capture is empty/ },
    { name: 'only blanks', text: ' \n\t', code: 'SVC_CAPTURE_UNREADABLE', message: /capture is empty/ },
    {
      name: 'garbage',
      text: 'hello world',
      code: 'SVC_CAPTURE_UNREADABLE',
      message: /first line is not an HTTP request line \(expected `POST \/api\/v3\/pg\/order\/create HTTP\/1\.1`, got "hello world"\)/,
    },
    { name: 'a body alone', text: BODY, code: 'SVC_CAPTURE_UNREADABLE', message: /looks like a body alone/ },
    { name: 'a response', text: 'HTTP/1.1 200 OK\n\n{}', code: 'SVC_CAPTURE_UNREADABLE', message: /response, not a request/ },
    {
      name: 'a body without a blank line',
      text: `POST / HTTP/1.1\nA: b\n${BODY}`,
      code: 'SVC_CAPTURE_UNREADABLE',
      message: /line 3 is not a header line.*put an empty line/,
    },
    {
      name: 'a bad Content-Length',
      text: 'POST / HTTP/1.1\nContent-Length: ten\n\n{}',
      code: 'SVC_CAPTURE_UNREADABLE',
      message: /Content-Length "ten"/,
    },
    {
      name: 'a bad chunk size',
      text: 'POST / HTTP/1.1\nTransfer-Encoding: chunked\n\nzz\n{}\n0\n\n',
      code: 'SVC_CAPTURE_UNREADABLE',
      message: /chunk size in hexadecimal, got "zz"/,
    },
    {
      name: 'a chunk longer than the rest',
      text: 'POST / HTTP/1.1\nTransfer-Encoding: chunked\n\n10\n{}\n',
      code: 'SVC_CAPTURE_UNREADABLE',
      message: /announces 16 bytes but only 3 remain/,
    },
    {
      name: 'a compressed body',
      text: 'POST / HTTP/1.1\nTransfer-Encoding: gzip, chunked\n\n',
      code: 'SVC_CAPTURE_UNSUPPORTED',
      message: /Transfer-Encoding "gzip, chunked"/,
    },
    {
      name: 'an unterminated quote',
      text: `curl https://h.test/x -d '{"a":1}`,
      code: 'SVC_CAPTURE_UNREADABLE',
      message: /unterminated single quote starting at line 1, column 26/,
    },
    {
      name: 'an unterminated double quote',
      text: `curl https://h.test/x \\\n -H "X-SIGNATURE: ab`,
      code: 'SVC_CAPTURE_UNREADABLE',
      message: /unterminated double quote starting at line 2, column 5/,
    },
    {
      name: '-d @file',
      text: `curl -d @body.json https://h.test/x`,
      code: 'SVC_CAPTURE_UNSUPPORTED',
      message: /-d @body\.json reads the body from a file.*paste the file contents inline.*--file/,
    },
    {
      name: '--data-binary @file',
      text: `curl --data-binary @body.json https://h.test/x`,
      code: 'SVC_CAPTURE_UNSUPPORTED',
      message: /--data-binary @body\.json/,
    },
    { name: '--json @-', text: `curl --json @- https://h.test/x`, code: 'SVC_CAPTURE_UNSUPPORTED', message: /standard input/ },
    { name: 'a multipart form', text: `curl -F a=b https://h.test/x`, code: 'SVC_CAPTURE_UNSUPPORTED', message: /multipart/ },
    { name: 'curl without a URL', text: `curl -X POST -d '{}'`, code: 'SVC_CAPTURE_UNREADABLE', message: /no URL/ },
    { name: 'curl with two URLs', text: `curl https://a.test https://b.test`, code: 'SVC_CAPTURE_UNSUPPORTED', message: /2 URLs/ },
    { name: 'an option missing its value', text: `curl https://h.test/x -H`, code: 'SVC_CAPTURE_UNREADABLE', message: /-H needs a value/ },
    {
      name: 'a Windows cmd copy',
      text: 'curl ^"https://h.test/x^" ^\n  -H ^"X-SIGNATURE: ab^"',
      code: 'SVC_CAPTURE_UNSUPPORTED',
      message: /Windows cmd.*as cURL \(bash\)/,
    },
    {
      name: 'a header without a colon',
      text: `curl https://h.test/x -H 'X-SIGNATURE abc'`,
      code: 'SVC_CAPTURE_UNREADABLE',
      message: /has no ':'/,
    },
  ])('$name', ({ text, code, message }) => {
    const error = captureError(text);
    expect(error.name).toBe('CaptureError');
    expect(error.code).toBe(code);
    expect(error.message).toMatch(/^capture: /);
    expect(error.message).toMatch(message);
  });
});
