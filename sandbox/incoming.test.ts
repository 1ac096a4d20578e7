// The light request a socket layer hands the app reads exactly as the WHATWG Request it replaces:
// each wire request below is read both ways (the Request built as the socket layers built it before)
// and must give the same method, URL, headers and body, or be refused by both.
import { describe, expect, it } from 'vitest';
import { incomingFromWire, type HeaderReader } from './incoming.js';

const ORIGIN = 'http://127.0.0.1:4010';
const BODY = Buffer.from('{"order_id":"A-1"}');

interface Wire {
  method: string;
  target: string;
  headers: Array<[string, string]>;
}

interface Read {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: string;
}

function listed(headers: HeaderReader): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  headers.forEach((value, name) => list.push([name, value]));
  return list;
}

/** What a WHATWG Request makes of the wire request, or 'refused'. */
async function readAsRequest(wire: Wire): Promise<Read | 'refused'> {
  let request: Request;
  try {
    const headers = new Headers();
    for (const [name, value] of wire.headers) headers.append(name, value);
    const hasBody = wire.method !== 'GET' && wire.method !== 'HEAD';
    request = new Request(new URL(wire.target, ORIGIN), { method: wire.method, headers, ...(hasBody ? { body: BODY } : {}) });
  } catch {
    return 'refused';
  }
  return { method: request.method, url: request.url, headers: listed(request.headers), body: await request.text() };
}

/** What the light reading makes of it, or 'refused'. */
function readAsIncoming(wire: Wire): Read | 'refused' {
  try {
    const incoming = incomingFromWire(wire.method, wire.target, ORIGIN, wire.headers, BODY);
    return {
      method: incoming.method,
      url: incoming.url.href,
      headers: listed(incoming.headers),
      body: Buffer.from(incoming.body!).toString('utf8'),
    };
  } catch {
    return 'refused';
  }
}

const SIGNED: Array<[string, string]> = [
  ['Content-Type', 'application/json'],
  ['X-API-KEY', 'pk_test_1'],
  ['X-TIMESTAMP', '1763719200'],
  ['X-SIGNATURE', 'ab'.repeat(32)],
];

const CASES: Array<[string, Wire]> = [
  ['a signed POST', { method: 'POST', target: '/api/v3/pg/order/create', headers: SIGNED }],
  ['a repeated header, joined', { method: 'POST', target: '/x', headers: [...SIGNED, ['x-signature', 'cd'.repeat(32)]] }],
  ['a value with space around it, trimmed', { method: 'POST', target: '/x', headers: [['X-Api-Key', '  pk_test_1 \t']] }],
  ['a value with a tab inside', { method: 'POST', target: '/x', headers: [['X-Note', 'a\tb']] }],
  ['an empty value', { method: 'POST', target: '/x', headers: [['X-Empty', '']] }],
  ['a Latin-1 value', { method: 'POST', target: '/x', headers: [['X-Name', 'Jos\u00e9']] }],
  ['a value past Latin-1', { method: 'POST', target: '/x', headers: [['X-Name', '\u20ac5']] }],
  ['a NUL in a value', { method: 'POST', target: '/x', headers: [['X-Name', 'a\u0000b']] }],
  ['a header name with a space', { method: 'POST', target: '/x', headers: [['X Name', 'a']] }],
  [
    'Set-Cookie twice',
    {
      method: 'POST',
      target: '/x',
      headers: [
        ['Set-Cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ],
    },
  ],
  [
    'headers in any order and case, listed sorted',
    {
      method: 'POST',
      target: '/x',
      headers: [
        ['b', '1'],
        ['A', '2'],
        ['c', '3'],
      ],
    },
  ],
  ['a lowercase method, normalized', { method: 'post', target: '/x', headers: SIGNED }],
  ['a lowercase patch, kept', { method: 'patch', target: '/x', headers: SIGNED }],
  ['a forbidden method', { method: 'CONNECT', target: '/x', headers: SIGNED }],
  ['a method that is no token', { method: 'PO ST', target: '/x', headers: SIGNED }],
  ['a GET, whose body is dropped', { method: 'GET', target: '/checkout/SVC-1?x=1', headers: [] }],
  ['an absolute target with credentials', { method: 'POST', target: 'http://user:pw@127.0.0.1:4010/x', headers: SIGNED }],
  ['a target that is no URL', { method: 'POST', target: 'http://[::1', headers: SIGNED }],
  ['a target with odd characters', { method: 'POST', target: '/a b/%zz/\u00e9?q=<1>', headers: SIGNED }],
];

/** Targets and origins, each read both ways with the same signed headers. */
const TARGETS: Array<[string, string]> = [
  ['/api/v3/pg/order/create', ORIGIN],
  ['/a?', ORIGIN],
  ['/a?x=1&y=b.c~', ORIGIN],
  ['/a/../b', ORIGIN],
  ['/a/./b', ORIGIN],
  ['/%41b', ORIGIN],
  ['//evil.example/x', ORIGIN],
  ['//evil/x', ORIGIN],
  ['/x#frag', ORIGIN],
  ['/x?q=a b', ORIGIN],
  ['/x', 'http://LOCALHOST:80'],
  ['/x', 'http://[::1]:4010'],
  ['/x', 'http://Merchant.Example.:8080'],
];

describe('incomingFromWire reads a request as a WHATWG Request would', () => {
  it.each(CASES)('%s', async (_name, wire) => {
    expect(readAsIncoming(wire)).toEqual(await readAsRequest(wire));
  });

  it.each(TARGETS)('target %s at %s', (target, origin) => {
    const incoming = incomingFromWire('POST', target, origin, SIGNED, BODY);
    const request = new Request(new URL(target, origin), { method: 'POST', body: BODY });
    const url = new URL(request.url);
    expect({ href: incoming.url.href, origin: incoming.url.origin, pathname: incoming.url.pathname, search: incoming.url.search }).toEqual({
      href: url.href,
      origin: url.origin,
      pathname: url.pathname,
      search: url.search,
    });
    expect(incoming.toRequest().url).toBe(request.url);
  });

  it('joins a repeated header with ", ", trims a value, and refuses what a Request refuses (values written here)', () => {
    const joined = incomingFromWire(
      'POST',
      '/x',
      ORIGIN,
      [
        ['X-A', '1'],
        ['x-a', ' 2 '],
      ],
      BODY,
    );
    expect(joined.headers.get('x-a')).toBe('1, 2');
    expect(() => incomingFromWire('POST', '/x', ORIGIN, [['X-A', 'a\nb']], BODY)).toThrow(TypeError);
    expect(() => incomingFromWire('TRACE', '/x', ORIGIN, [], BODY)).toThrow(TypeError);
  });

  it('gives a page route the same request as a Request, its body unread', async () => {
    const incoming = incomingFromWire('POST', '/checkout/SVC-1', ORIGIN, [['Content-Type', 'application/x-www-form-urlencoded']], BODY);
    const request = incoming.toRequest();
    expect(request.url).toBe(`${ORIGIN}/checkout/SVC-1`);
    expect(request.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(await request.text()).toBe(BODY.toString());
  });
});
