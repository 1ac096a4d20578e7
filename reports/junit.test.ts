import { coverageOf } from '../core/verdict.js';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/exchange.js';
import { renderJUnit, xmlEscape } from './junit.js';
import type { Report, RequirementReport } from '../core/report.js';

// ---------------------------------------------------------------------------------------------
// A minimal XML 1.0 reader, enough to prove the output well-formed and read it back: it rejects
// characters XML forbids, unknown or broken references, mismatched tags, duplicate attributes,
// '<' in attribute values and ']]>' in text, and decodes references the way a parser would.

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: Array<XmlElement | string>;
}

const XML_CHAR = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;
const NAME = /[A-Za-z_:][A-Za-z0-9._:-]*/y;

function parseXml(source: string): XmlElement {
  if (!XML_CHAR.test(source)) throw new Error('a character XML 1.0 does not allow');
  const text = source.replace(/\r\n?/g, '\n');
  let pos = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at ${pos}: ${JSON.stringify(text.slice(pos, pos + 30))}`);
  };
  const skipSpace = () => {
    while (/\s/.test(text[pos] ?? '')) pos++;
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos + 4);
        if (end < 0 || text.slice(pos + 4, end).includes('--')) fail('bad comment');
        pos = end + 3;
      } else return;
    }
  };
  const name = (): string => {
    NAME.lastIndex = pos;
    const match = NAME.exec(text);
    if (!match) fail('expected a name');
    pos += match![0].length;
    return match![0];
  };
  const decode = (raw: string): string =>
    raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
      if (ref === undefined) return fail('bare &');
      if (ref in named) return named[ref]!;
      const code = /^#x[0-9a-fA-F]+$/.test(ref) ? parseInt(ref.slice(2), 16) : /^#[0-9]+$/.test(ref) ? parseInt(ref.slice(1), 10) : -1;
      const char = code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      if (!char || !XML_CHAR.test(char)) fail(`bad reference ${whole}`);
      return char;
    });
  const element = (): XmlElement => {
    if (text[pos] !== '<') fail('expected <');
    pos++;
    const node: XmlElement = { name: name(), attrs: {}, children: [] };
    for (;;) {
      skipSpace();
      if (text.startsWith('/>', pos)) return ((pos += 2), node);
      if (text[pos] === '>') break;
      const attr = name();
      skipSpace();
      if (text[pos++] !== '=') fail('expected =');
      skipSpace();
      const quote = text[pos++];
      if (quote !== '"' && quote !== "'") fail('expected a quote');
      const end = text.indexOf(quote!, pos);
      if (end < 0) fail('unterminated attribute');
      const raw = text.slice(pos, end);
      if (raw.includes('<')) fail('< in an attribute');
      if (attr in node.attrs) fail(`duplicate attribute ${attr}`);
      node.attrs[attr] = decode(raw.replace(/[\t\n]/g, ' '));
      pos = end + 1;
    }
    pos++;
    for (;;) {
      const next = text.indexOf('<', pos);
      if (next < 0) fail(`unclosed <${node.name}>`);
      const raw = text.slice(pos, next);
      if (raw.includes(']]>')) fail(']]> in text');
      if (raw !== '') node.children.push(decode(raw));
      pos = next;
      if (text.startsWith('</', pos)) {
        pos += 2;
        if (name() !== node.name) fail(`mismatched end tag for <${node.name}>`);
        skipSpace();
        if (text[pos++] !== '>') fail('expected >');
        return node;
      }
      if (text.startsWith('<!--', pos)) skipMisc();
      else node.children.push(element());
    }
  };
  if (text.startsWith('<?xml', pos)) {
    const end = text.indexOf('?>', pos);
    if (end < 0) fail('unterminated declaration');
    pos = end + 2;
  }
  skipMisc();
  const root = element();
  skipMisc();
  if (pos !== text.length) fail('content after the root element');
  return root;
}

const kids = (node: XmlElement, name: string) => node.children.filter((c): c is XmlElement => typeof c !== 'string' && c.name === name);
const textOf = (node: XmlElement) => node.children.filter((c): c is string => typeof c === 'string').join('');

// ---------------------------------------------------------------------------------------------
// Fixtures

function exchange(responseBody: string): Exchange {
  return {
    label: 'create order',
    request: {
      method: 'POST',
      url: 'https://pay.example/api/v3/order',
      headers: { 'X-API-KEY': 'pk_test_1', 'X-SIGNATURE': '[redacted]' },
      body: '{"order_id":"A-1"}',
    },
    response: { status: 500, headers: { 'content-type': 'text/html' }, body: responseBody },
    ms: 42,
  };
}

function requirement(id: string, overrides: Partial<RequirementReport> = {}): RequirementReport {
  return {
    id,
    title: `title of ${id}`,
    level: 'MUST',
    section: 'Authentication',
    profile: ['P-AUTH-2'],
    extension: false,
    status: 'passed',
    checks: [],
    evidence: [],
    ...overrides,
  };
}

function failing(id: string, message: string, overrides: Partial<RequirementReport> = {}): RequirementReport {
  return requirement(id, {
    status: 'failed',
    checks: [{ id: id.toLowerCase(), title: 'a check', status: 'failed', message }],
    evidence: [
      {
        check: id.toLowerCase(),
        message,
        expected: '401',
        actual: '500',
        exchanges: [exchange(message)],
        reproduce: { curl: 'curl -X POST …', replay: 'svc-conformance replay …' },
      },
    ],
    ...overrides,
  });
}

function report(requirements: RequirementReport[], overrides: Partial<Report> = {}): Report {
  return {
    tool: { name: 'svc-conformance', version: '0.1.0' },
    target: { baseUrl: 'https://pay.example', environment: 'sandbox', embeddedSandbox: false },
    seed: 1234,
    runNumber: 1,
    runs: 1,
    strict: false,
    startedAt: '2025-11-21T06:40:12.345Z',
    durationMs: 5321,
    verdict: 'not-conformant',
    coverage: coverageOf(requirements),
    summary: { passed: 0, failed: 0, warned: 0, skipped: 0 },
    requirements,
    ...overrides,
  };
}

// ---------------------------------------------------------------------------------------------

describe('the test XML reader', () => {
  it.each([
    ['a bare ampersand', '<a>&</a>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['a reference to NUL', '<a>&#0;</a>'],
    ['a raw control character', '<a>\u0001</a>'],
    ['mismatched tags', '<a><b></a></b>'],
    ['< in an attribute', '<a x="<"/>'],
    ['a duplicate attribute', '<a x="1" x="2"/>'],
    [']]> in text', '<a>]]></a>'],
    ['two roots', '<a/><b/>'],
  ])('rejects %s', (_name, xml) => {
    expect(() => parseXml(xml)).toThrow();
  });

  it('reads references and normalizes attribute whitespace', () => {
    const root = parseXml(`<a x="1&#10;2\t3 &quot;&apos;">&lt;&#x1F642;&amp;</a>`);
    expect(root.attrs.x).toBe(`1\n2 3 "'`);
    expect(textOf(root)).toBe('<🙂&');
  });
});

const nasty: Array<[string, string, string]> = [
  ['ampersand and angle brackets', 'a & b < c > d', 'a & b < c > d'],
  ['quotes', `say "hi" and 'bye'`, `say "hi" and 'bye'`],
  ['a closing tag and CDATA end', '</failure>]]><script>alert(1)</script>', '</failure>]]><script>alert(1)</script>'],
  ['line breaks and tabs', 'one\ntwo\r\nthree\tfour\rfive', 'one\ntwo\r\nthree\tfour\rfive'],
  ['emoji and other scripts', 'Zoë 東京 🙂👍🏽', 'Zoë 東京 🙂👍🏽'],
  ['C0 controls XML forbids', 'nul\u0000 bell\u0007 vt\u000b ff\u000c esc\u001b', 'nul␀ bell␇ vt␋ ff␌ esc␛'],
  ['noncharacters and a lone surrogate', 'a\ufffeb\uffffc\ud800d', 'a\ufffdb\ufffdc\ufffdd'],
  ['entity look-alikes', '&amp; &#0; &lt;', '&amp; &#0; &lt;'],
];

describe('renderJUnit escaping', () => {
  it.each(nasty)('round-trips %s in attributes and text', (_name, input, expected) => {
    const xml = renderJUnit(
      report(
        [
          failing('ERR-1', input, { title: input }),
          requirement('ERR-2', { status: 'skipped', skipReason: input }),
          failing('ERR-3', input, { level: 'MAY' }),
        ],
        { target: { baseUrl: input, environment: 'sandbox', embeddedSandbox: false } },
      ),
    );
    const root = parseXml(xml);
    const suite = kids(root, 'testsuite')[0]!;
    const [failed, skipped, may] = kids(suite, 'testcase');
    expect(failed!.attrs.name).toBe(`ERR-1 ${expected}`);
    const failure = kids(failed!, 'failure')[0]!;
    expect(failure.attrs.message).toBe(`MUST: ${expected}`);
    expect(textOf(failure)).toContain(`[err-1] ${expected}`);
    expect(textOf(failure)).toContain(`< ${expected.split('\n')[0]}`);
    expect(kids(skipped!, 'skipped')[0]!.attrs.message).toBe(expected);
    expect(textOf(kids(may!, 'system-out')[0]!)).toContain(expected);
    const props = Object.fromEntries(kids(kids(suite, 'properties')[0]!, 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props['target.baseUrl']).toBe(expected);
  });

  it.each(nasty)('xmlEscape leaves no character XML forbids: %s', (_name, input) => {
    expect(xmlEscape(input)).toMatch(XML_CHAR);
    expect(xmlEscape(input, true)).not.toMatch(/["'<>\n\r\t]/);
  });
});

describe('renderJUnit structure', () => {
  const requirements = [
    requirement('AUTH-ACCEPT'),
    failing('AUTH-MISSING-KEY', 'expected 401, got 200'),
    requirement('ENV-LIVE', { section: 'Environments', status: 'skipped', skipReason: 'needs otherEnvironment.apiKey in the config' }),
    failing('ERR-RETRY-AFTER', 'no Retry-After on 429', { section: 'Errors', level: 'SHOULD' }),
    failing('ERR-JSON-TYPE', 'content type text/html', { section: 'Errors', level: 'MAY' }),
    requirement('ERR-ENVELOPE', { section: 'Errors' }),
  ];

  it.each([
    ['sandbox, not strict', false, 'SHOULD (warning): no Retry-After on 429'],
    ['strict', true, 'SHOULD (fails the run: --strict): no Retry-After on 429'],
  ])('one testsuite per section with its counts (%s)', (_name, strict, shouldMessage) => {
    const root = parseXml(renderJUnit(report(requirements, { strict })));
    expect(root.name).toBe('testsuites');
    expect(root.attrs).toMatchObject({
      tests: '6',
      failures: '2',
      skipped: '1',
      errors: '0',
      time: '5.321',
      timestamp: '2025-11-21T06:40:12',
    });
    const suites = kids(root, 'testsuite');
    expect(suites.map((s) => [s.attrs.name, s.attrs.tests, s.attrs.failures, s.attrs.skipped])).toEqual([
      ['Authentication', '2', '1', '0'],
      ['Environments', '1', '0', '1'],
      ['Errors', '3', '1', '0'],
    ]);
    const cases = suites.flatMap((s) => kids(s, 'testcase'));
    expect(cases.map((c) => c.attrs.classname)).toEqual(['Authentication', 'Authentication', 'Environments', 'Errors', 'Errors', 'Errors']);
    expect(cases[0]!.attrs.name).toBe('AUTH-ACCEPT title of AUTH-ACCEPT');
    expect(cases[0]!.children).toEqual([]);
    expect(kids(cases[1]!, 'failure')[0]!.attrs.type).toBe('MUST');
    expect(kids(cases[2]!, 'skipped')[0]!.attrs.message).toBe('needs otherEnvironment.apiKey in the config');
    const should = kids(cases[3]!, 'failure')[0]!;
    expect(should.attrs).toMatchObject({ type: 'SHOULD', message: shouldMessage });
    expect(kids(cases[4]!, 'failure')).toEqual([]);
    expect(textOf(kids(cases[4]!, 'system-out')[0]!)).toMatch(/^MAY \(information\): content type text\/html/);
  });

  it("puts seed, target and verdict in every suite's properties", () => {
    const root = parseXml(renderJUnit(report(requirements)));
    for (const suite of kids(root, 'testsuite')) {
      const props = Object.fromEntries(kids(kids(suite, 'properties')[0]!, 'property').map((p) => [p.attrs.name, p.attrs.value]));
      expect(props).toMatchObject({ seed: '1234', 'target.baseUrl': 'https://pay.example', verdict: 'not-conformant', strict: 'false' });
    }
  });

  it('says the run number and the cases per property apart, never as one "run N of M"', () => {
    const suite = kids(parseXml(renderJUnit(report(requirements, { runNumber: 91546831, runs: 20 }))), 'testsuite')[0]!;
    const props = Object.fromEntries(kids(kids(suite, 'properties')[0]!, 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props).toMatchObject({ runNumber: '91546831', casesPerProperty: '20' });
    expect(props.run).toBeUndefined();
    const one = kids(parseXml(renderJUnit(report([requirement('AUTH-ACCEPT')]))), 'testsuite')[0]!;
    expect(kids(kids(one, 'properties')[0]!, 'property').find((p) => p.attrs.name === 'coverage')?.attrs.value).toBe(
      '1 of 1 requirement judged',
    );
  });

  it('writes the evidence: expectation, exchange and reproduce lines, with the signature redacted', () => {
    const root = parseXml(renderJUnit(report([failing('AUTH-MISSING-KEY', 'expected 401, got 200')])));
    const body = textOf(kids(kids(kids(root, 'testsuite')[0]!, 'testcase')[0]!, 'failure')[0]!);
    expect(body).toContain('expected: 401\n');
    expect(body).toContain('actual:   500');
    expect(body).toContain('> POST https://pay.example/api/v3/order');
    expect(body).toContain('> X-SIGNATURE: [redacted]');
    expect(body).toContain('< HTTP 500');
    expect(body).toContain('svc-conformance replay …');
  });

  // Before: "MUST: …: the record does not match order-status-record: /order_amount: must be string", and no word of whose rule.
  it('says, in the failure CI shows, that the interface does not say and which profile rule decides', () => {
    const decided = failing(
      'OPS-ORDER-STATUS',
      'Order Status: the record does not match order-status-record: /order_amount: must be string',
      {
        profileDecides: { rule: 'P-OPS-1', decision: 'order_amount is decimal text' },
      },
    );
    const failure = kids(kids(kids(parseXml(renderJUnit(report([decided]))), 'testsuite')[0]!, 'testcase')[0]!, 'failure')[0]!;
    expect(failure.attrs.message).toBe(
      'MUST: Order Status: the record does not match order-status-record: /order_amount: must be string — the interface does not say; profile rule P-OPS-1 decides: order_amount is decimal text',
    );
    expect(textOf(failure)).toMatch(
      /^the interface does not say; profile rule P-OPS-1 decides: order_amount is decimal text \(docs\/profile\.md#P-OPS-1\)\n\n\[/,
    );
    const plain = kids(
      kids(kids(parseXml(renderJUnit(report([failing('AUTH-MISSING-KEY', 'got 200')]))), 'testsuite')[0]!, 'testcase')[0]!,
      'failure',
    )[0]!;
    expect(plain.attrs.message).toBe('MUST: got 200');
  });

  it('names a failure from its failed checks when it carries no evidence, and renders an empty report', () => {
    const bare = failing('DUP-1', 'ignored', {
      evidence: [],
      checks: [{ id: 'dup-1', title: 'duplicate', status: 'failed', message: 'second order accepted' }],
    });
    const root = parseXml(renderJUnit(report([bare])));
    expect(kids(kids(kids(root, 'testsuite')[0]!, 'testcase')[0]!, 'failure')[0]!.attrs.message).toBe('MUST: second order accepted');
    expect(kids(parseXml(renderJUnit(report([]))), 'testsuite')).toEqual([]);
  });
});
