import { coverageOf } from '../core/verdict.js';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { catalog } from '../suites/catalog.js';
import type { Exchange } from '../core/exchange.js';
import { curlLine } from '../core/reproduce.js';
import { replayLine } from '../core/resend-lines.js';
import { esc } from './html-evidence.js';
import { renderHtml } from './html.js';
import type { Evidence, Report, RequirementReport } from '../core/report.js';

const BASE = 'https://pay.example.com';

function exchange(
  label: string,
  path: string,
  payload: unknown,
  status: number,
  answer: string,
  contentType = 'application/json',
): Exchange {
  return {
    label,
    request: {
      method: 'POST',
      url: BASE + path,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'X-API-KEY': 'pk_test_5f2c',
        'X-TIMESTAMP': '1763707212',
        'X-SIGNATURE': '[redacted]',
      },
      body: JSON.stringify(payload),
    },
    response: { status, headers: { 'content-type': contentType, 'content-length': String(answer.length) }, body: answer },
    ms: 37,
  };
}

function evidence(requirement: string, check: string, message: string, exchanges: Exchange[], extra: Partial<Evidence> = {}): Evidence {
  const first = exchanges[0];
  return {
    check,
    message,
    exchanges,
    ...(first
      ? {
          reproduce: {
            curl: curlLine(first),
            replay: replayLine(first),
            run: `svc-conformance run --config CONFIG.json --seed 20251121 --only ${requirement}`,
          },
        }
      : {}),
    ...extra,
  };
}

const order = {
  order_id: 'SVC-7f3a-0001',
  order_amount: 1499.5,
  order_currency: 'INR',
  customer: { name: "Zoë O'Brien", email: 'zoe@example.com' },
};

/** Outcomes for a few catalog requirements; every other one passed. */
const outcomes: Record<string, Partial<RequirementReport>> = {
  'AUTH-MISSING-KEY': {
    status: 'failed',
    evidence: [
      evidence(
        'AUTH-MISSING-KEY',
        'auth-missing-key',
        'A request without X-API-KEY was accepted',
        [
          exchange(
            'create order without X-API-KEY',
            '/api/v3/pg/order/create',
            order,
            200,
            '{"status":"success","code":200,"data":{"svc_order_id":"ord_91"}}',
          ),
        ],
        {
          expected: 'HTTP 401 with an error envelope',
          actual: 'HTTP 200 (application/json) {"status":"success","code":200,…}',
        },
      ),
    ],
  },
  'ORDER-CREATED-AT': {
    status: 'failed',
    evidence: [
      evidence(
        'ORDER-CREATED-AT',
        'order-created-at',
        'created_at "21-11-2025 00:40 AM" has hour 00; the interface writes 12-hour time, 01-12',
        [
          exchange(
            'create order (generated #17)',
            '/api/v3/pg/order/create',
            { ...order, order_id: 'SVC-7f3a-0017' },
            201,
            '{"status":"success","code":201,"data":{"created_at":"21-11-2025 00:40 AM","order_id":"SVC-7f3a-0017"}}',
          ),
        ],
        {
          expected: 'DD-MM-YYYY hh:mm AM/PM, hour 01-12',
          actual: '"21-11-2025 00:40 AM"',
          counterexample: { seed: 20251121, path: '17:3', order: { ...order, order_id: 'SVC-7f3a-0017' } },
        },
      ),
    ],
  },
  'ERR-NO-5XX': {
    status: 'failed',
    evidence: [
      evidence(
        'ERR-NO-5XX',
        'err-no-5xx-null-amount',
        'A null order_amount made the server answer 500 with an HTML page',
        [
          exchange(
            'create order with order_amount null',
            '/api/v3/pg/order/create',
            { ...order, order_amount: null },
            500,
            '<html><body><h1>Internal Server Error</h1><script>alert("pwned")</script></body></html>',
            'text/html',
          ),
        ],
        { expected: 'HTTP 400 with an error envelope', actual: 'HTTP 500 (text/html)' },
      ),
    ],
  },
  'AUTH-HTTPS': {
    status: 'failed',
    evidence: [
      {
        check: 'auth-https',
        message: 'baseUrl uses plain http on a non-loopback host',
        expected: 'https://…',
        actual: 'http://pay.example.com',
        exchanges: [],
      },
    ],
  },
  'AUTH-REPLAY': {
    status: 'failed',
    evidence: [
      evidence('AUTH-REPLAY', 'auth-replay', 'A re-sent request with the same timestamp and signature was accepted again', [
        exchange('re-send', '/api/v3/pg/order/create', order, 200, '{"status":"success"}'),
      ]),
    ],
  },
};

function fixture(overrides: Partial<Report> = {}): Report {
  const requirements: RequirementReport[] = catalog().map((r) => {
    const outcome = outcomes[r.id];
    const skipReason = r.extension
      ? `needs profile.operations.${r.id.startsWith('OPS-BALANCE') ? 'balanceInquiry' : 'orderStatus'} in the config`
      : /^PAYOUT-STATE-(PENDING|REVERSED)$/.test(r.id)
        ? `needs fixtures.payouts.${r.id.slice(13)} in the config`
        : undefined;
    if (!outcome && skipReason) return { ...r, status: 'skipped', skipReason, checks: [], evidence: [] };
    const status = outcome?.status ?? 'passed';
    return { ...r, status, checks: [{ id: r.id.toLowerCase(), title: r.title, status }], evidence: [], ...outcome };
  });
  const count = (f: (r: RequirementReport) => boolean) => requirements.filter(f).length;
  return {
    tool: { name: 'svc-conformance', version: '0.1.0' },
    target: { baseUrl: BASE, environment: 'sandbox', embeddedSandbox: false },
    seed: 20251121,
    runNumber: 1,
    runs: 1,
    strict: false,
    startedAt: '2025-11-21T06:40:12.345Z',
    durationMs: 83_400,
    verdict: 'not-conformant',
    coverage: coverageOf(requirements),
    summary: {
      passed: count((r) => r.status === 'passed'),
      failed: count((r) => r.status === 'failed' && r.level === 'MUST'),
      warned: count((r) => r.status === 'failed' && r.level === 'SHOULD'),
      skipped: count((r) => r.status === 'skipped'),
    },
    requirements,
    ...overrides,
  };
}

describe('renderHtml', () => {
  const report = fixture();
  const html = renderHtml(report);

  it('escapes what the target sent: bodies, headers, messages, labels', () => {
    const hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    const attack: Exchange = {
      label: hostile,
      request: { method: 'POST', url: `${BASE}/api/v3/"><script>`, headers: { [hostile]: hostile }, body: hostile },
      response: { status: 500, headers: { 'x-evil': hostile }, body: hostile },
      ms: 1,
    };
    const page = renderHtml(
      fixture({
        target: { baseUrl: hostile, environment: 'sandbox', embeddedSandbox: false },
        requirements: [
          {
            ...report.requirements[0]!,
            title: hostile,
            section: hostile,
            status: 'failed',
            skipReason: hostile,
            evidence: [evidence('X', hostile, hostile, [attack], { expected: hostile, actual: hostile, counterexample: { x: hostile } })],
          },
        ],
      }),
    );
    expect(page).not.toMatch(/<script|<img/i);
    expect(page).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&#60;h1&#62;Internal Server Error&#60;/h1&#62;&#60;script&#62;');
  });

  it('escapes the five characters that matter, in text and attributes', () => {
    expect(esc(`<a href="x" title='y'>&amp;</a>`)).toBe('&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;amp;&#60;/a&#62;');
  });

  it('lists every requirement once in the matrix, under its section, with level and rules', () => {
    const rows = [...html.matchAll(/<tr data-status="([\w-]+)" class="r-\w+"><td class="id">(?:<a href="#[^"]+">)?([A-Z0-9-]+)/g)];
    expect(rows.map((m) => m[2])).toEqual(report.requirements.map((r) => r.id));
    // A MAY that does not hold is "not-held" to the filters: never shown under "Failed".
    expect(rows.map((m) => m[1])).toEqual(
      report.requirements.map((r) => (r.status === 'failed' && r.level === 'MAY' ? 'not-held' : r.status)),
    );
    for (const section of new Set(report.requirements.map((r) => r.section))) {
      const n = report.requirements.filter((r) => r.section === section).length;
      expect(html).toContain(`<h3>${esc(section)} <span class="tally">${n} requirement${n === 1 ? '' : 's'}: `);
    }
    // Each rule links to its text in the page itself.
    expect(html).toContain(
      '<td class="rules"><a href="#rule-P-SIGN-2">P-SIGN-2</a> <a href="#rule-P-SIGN-3">P-SIGN-3</a> <a href="#rule-P-AUTH-1">P-AUTH-1</a></td>',
    );
    expect(html).toContain('<span class="ext">extension</span>');
  });

  it("carries each requirement's statement and every cited rule's text, and links nowhere outside the page (a CI artifact has no docs beside it)", () => {
    expect(html).not.toMatch(/file:|href="(?!#)/);
    // Every in-page link lands on something in the page.
    for (const [, target] of html.matchAll(/href="#([^"]+)"/g)) expect(html, target).toContain(`id="${target}"`);
    const cited = new Set(report.requirements.flatMap((r) => r.profile));
    expect(html).toContain(`<h2>Profile rules cited (${cited.size})</h2>`);
    expect(html).toContain(
      '<div id="rule-P-SIGN-2"><dt>P-SIGN-2</dt><dd>(MUST) The signed message is the canonical text immediately followed by the timestamp&#39;s decimal text, with nothing between them.',
    );
    expect(html).toContain(
      '<div id="rule-P-DUP-4"><dt>P-DUP-4</dt><dd>(SHOULD) Identifiers are compared as text: <code>123</code> and <code>&#34;123&#34;</code> are one and the same <code>order_id</code>.</dd></div>',
    );
    const statement = 'A client is judged by the requests it sends, & <nothing> else.';
    const failed = report.requirements.find((r) => r.id === 'AUTH-MISSING-KEY')!;
    const page = renderHtml({ ...report, requirements: report.requirements.map((r) => (r === failed ? { ...r, statement } : r)) });
    expect(page.match(new RegExp(`<p class="statement">${esc(statement)}</p>`, 'g'))).toHaveLength(2); // its failure card and its row
  });

  it('links each count to a section the page has: a clean run with only not-applicable skips has no failures or "not judged" section', () => {
    const clean = fixture().requirements.map(
      (r, i): RequirementReport =>
        i === 0
          ? { ...r, status: 'skipped', notApplicable: true, skipReason: 'not applicable', evidence: [] }
          : { ...r, status: 'passed', evidence: [] },
    );
    const page = renderHtml(
      fixture({ verdict: 'conformant', requirements: clean, summary: { passed: clean.length - 1, failed: 0, warned: 0, skipped: 1 } }),
    );
    expect(page).not.toContain('id="failures"');
    expect(page).not.toContain('id="skipped"');
    for (const [, target] of page.matchAll(/href="#([^"]+)"/g)) expect(page, target).toContain(`id="${target}"`);
  });

  it('gives every failure a card with its evidence, exchanges and reproduce lines', () => {
    const failed = report.requirements.filter((r) => r.status === 'failed');
    for (const r of failed) expect(html).toContain(`id="req-${r.id}"`);
    const exchanges = failed.reduce((n, r) => n + r.evidence.reduce((m, e) => m + e.exchanges.length, 0), 0);
    expect(html.match(/<details class="exchange">/g)).toHaveLength(exchanges);
    expect(html).toContain('# SIG=$(svc-conformance sign --timestamp 1763707212 --file body.json)');
    expect(html).toContain('svc-conformance replay --config CONFIG.json --method POST --path /api/v3/pg/order/create');
    expect(html).toContain('svc-conformance run --config CONFIG.json --seed 20251121 --only ORDER-CREATED-AT');
    expect(html).toContain('&#34;path&#34;: &#34;17:3&#34;');
    expect(html).not.toMatch(/[0-9a-f]{64}/);
    // Most severe first (MUST, then the SHOULD warning), catalog order within a level; the MAY in a section of its own.
    const order = [...html.matchAll(/<article class="failure sev-(\w+)" id="req-([A-Z0-9-]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(order).toEqual(['fail AUTH-MISSING-KEY', 'fail ERR-NO-5XX', 'fail ORDER-CREATED-AT', 'warn AUTH-HTTPS', 'info AUTH-REPLAY']);
  });

  // Before: AUTH-REPLAY (MAY) was a card under "Failures and warnings", its "Actual" box on the failure's red.
  it('shows a MAY that does not hold as information, apart from the failures and never in red', () => {
    const failures = html.slice(
      html.indexOf('<section id="failures">'),
      html.indexOf('</section>', html.indexOf('<section id="failures">')),
    );
    expect(failures).not.toContain('AUTH-REPLAY');
    const information = html.slice(html.indexOf('<section id="information">'));
    expect(information).toMatch(/^<section id="information"><h2>Information: MAY not held \(1\)<\/h2>/);
    expect(information).toContain('<article class="failure sev-info" id="req-AUTH-REPLAY">');
    expect(html).toContain('<a class="count c-info" href="#information"><span class="n">1</span><span class="label">MAY not held</span>');
    expect(html).toMatch(/\.failure\.sev-info \.expect \.actual \{ background: var\(--info-bg\)/);
    const mayOnly = fixture({
      verdict: 'conformant',
      requirements: report.requirements.map((r) =>
        r.level === 'MAY' || r.status !== 'failed' ? r : { ...r, status: 'passed', evidence: [] },
      ),
    });
    const page = renderHtml(mayOnly);
    expect(page).not.toContain('<section id="failures">');
    expect(page).toContain('<section id="information">');
  });

  // Before: a failure read off a schema ("/order_amount: must be string") never said the rule was the profile's.
  it("says, on a failure resting on a point the interface leaves open, which profile rule decides it, linked to the rule's text", () => {
    const decided = catalog().find((r) => r.id === 'OPS-CANCEL-AGAIN')!;
    const page = renderHtml(
      fixture({
        requirements: [
          {
            ...decided,
            status: 'failed',
            checks: [{ id: 'ops-cancel-again', title: 't', status: 'failed' }],
            evidence: [{ check: 'ops-cancel-again', message: 'cancel again: expected HTTP 422, got 409', exchanges: [] }],
          },
        ],
      }),
    );
    expect(page).toContain(
      '<p class="decided">The interface does not say; profile rule <a href="#rule-P-OPS-1">P-OPS-1</a> decides: cancelling a CANCELLED (or PAID) order answers 422</p>',
    );
    expect(page).toContain('<div id="rule-P-OPS-1">');
    // Every decision of the catalog is shown whole, whatever rule ids its own text names.
    const all = renderHtml(
      fixture({
        requirements: catalog()
          .filter((r) => r.profileDecides !== undefined)
          .map((r) => ({ ...r, status: 'failed' as const, checks: [], evidence: [] })),
      }),
    );
    for (const r of catalog().filter((q) => q.profileDecides !== undefined))
      expect(all).toContain(
        `<a href="#rule-${r.profileDecides!.rule}">${r.profileDecides!.rule}</a> decides: ${esc(r.profileDecides!.decision)}</p>`,
      );
    // A point the interface itself settles (401 for a missing key) says nothing of the kind.
    const card = html.slice(
      html.indexOf('id="req-AUTH-MISSING-KEY"'),
      html.indexOf('</article>', html.indexOf('id="req-AUTH-MISSING-KEY"')),
    );
    expect(card).not.toContain('class="decided"');
    expect(html).toContain('<p class="decided">The interface does not say; profile rule <a href="#rule-P-ERR-3">P-ERR-3</a> decides: ');
  });

  it('says what the failure cards count, in the words of the counts above them', () => {
    expect(html).toContain('<span class="n">3</span><span class="label">Failed</span>');
    expect(html).toContain(
      '<h2>Failures and warnings (4)</h2><p class="note">3 MUST requirements failed and 1 SHOULD requirement warned, most severe first.',
    );
    expect(renderHtml({ ...report, strict: true })).toContain(
      '3 MUST requirements failed and 1 SHOULD requirement failed under --strict, most severe first.',
    );
  });

  it('says which config key would enable each skipped requirement', () => {
    expect(html).toContain('<span class="why">Skipped: needs <code>fixtures.payouts.PENDING</code> in the config</span>');
    expect(html).toContain('<strong>needs <code>profile.operations.balanceInquiry</code> in the config</strong>');
  });

  // The fixture judges every requirement of the catalog but those it skips.
  const total = catalog().length;
  const judged = total - report.requirements.filter((q) => q.status === 'skipped').length;
  it.each([
    ['not-conformant', false, 'Not conformant', '3 MUST requirements failed.'],
    [
      'conformant',
      false,
      `Conformant <span class="partial">· partial: ${judged} of ${total} requirements judged</span>`,
      `Every MUST requirement that ran holds; 1 SHOULD warning to look at. Only ${judged} of ${total} requirements were judged: the rest are listed under "Not judged".`,
    ],
    ['not-conformant', true, 'Not conformant', '3 MUST requirements failed, and 1 SHOULD requirement failed under --strict.'],
  ] as const)('shows the verdict %s (strict %s) with its reason', (verdict, strict, heading, why) => {
    const page = renderHtml({ ...report, verdict, strict });
    expect(page).toContain(`<h1>${heading}</h1><p class="why">${esc(why)}</p>`);
    expect(page).toContain(`<header class="verdict ${verdict === 'conformant' ? 'pass' : 'fail'}"`);
    expect(page).toContain('<dd>https://pay.example.com</dd>');
    expect(page).toContain('<dd>20251121</dd>');
    expect(page).toContain('<dd>2025-11-21 06:40:12 UTC</dd>');
    expect(page).toContain('<dd>1 min 23 s</dd>');
  });

  it('shows what a client or receiver judgement judged, with no seed or property cases that do not apply', () => {
    const client = renderHtml(
      fixture({ client: { command: 'python3 my_client.py', exitCode: 0, requests: 7, scenarios: ['payout-failed'] } }),
    );
    expect(client).toContain('<dt>Client</dt><dd>python3 my_client.py</dd>');
    expect(client).toContain('<dt>Scenarios</dt><dd>payout-failed</dd>');
    expect(client).not.toContain('<dt>Seed</dt>');
    expect(client).not.toContain('<dt>Cases per property</dt>');
    const receiver = renderHtml(fixture({ receiver: { url: 'http://127.0.0.1:4020/webhooks', deliveries: 15 } }));
    expect(receiver).toContain('<dt>Webhook receiver</dt><dd>http://127.0.0.1:4020/webhooks (15 deliveries)</dd>');
    expect(receiver).not.toContain('<dt>Seed</dt>');
    expect(renderHtml(fixture({ receiver: { url: 'http://127.0.0.1:4020/webhooks', deliveries: 1 } }))).toContain(
      '<dd>http://127.0.0.1:4020/webhooks (1 delivery)</dd>',
    );
    expect(receiver).not.toMatch(/Seed \d+: the same seed/);
    expect(renderHtml(fixture())).toContain('<dt>Seed</dt>');
  });

  it("says which signatures it redacts: the kit's own and any right one, not a webhook sender's wrong one, which is evidence", () => {
    expect(html).toContain(
      "secrets, the signatures the kit made and any right signature are redacted (a webhook delivery's wrong X-SIGNATURE is shown: it is what HOOK-SIGNATURE judges).</footer>",
    );
  });

  it('is one self-contained page: no external assets and no script', () => {
    expect(html).not.toMatch(/<(script|link)\b|src=|@import|url\(/i);
  });
});

describe('renderHtml in a browser', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Needs the Debian chromium package; playwright-core downloads no browser of its own.
  it.skipIf(!existsSync('/usr/bin/chromium'))(
    "shows the verdict, opens a failure's exchange, filters, and screenshots (needs /usr/bin/chromium)",
    async () => {
      const file = join(dir, 'report.html');
      writeFileSync(file, renderHtml(fixture()));
      const browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const dialogs: string[] = [];
        page.on('dialog', (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        await page.goto(pathToFileURL(file).href);
        const banner = page.locator('#verdict');
        expect(await banner.isVisible()).toBe(true);
        expect(await banner.locator('h1').textContent()).toBe('Not conformant');

        const details = page.locator('#req-ERR-NO-5XX details.exchange').first();
        const responseBody = details.locator('.http pre', { hasText: 'Internal Server Error' });
        expect(await responseBody.isVisible()).toBe(false);
        expect(await details.getAttribute('open')).toBeNull();
        await details.locator('summary').click();
        expect(await details.getAttribute('open')).not.toBeNull();
        expect(await responseBody.isVisible()).toBe(true);
        expect(await responseBody.textContent()).toContain('<script>alert("pwned")</script>');
        expect(dialogs).toEqual([]);

        // The CSS-only filter: "Failed" hides passing rows and sections without failures.
        await page.locator('label[for="show-failed"]').click();
        expect(await page.locator('tr[data-status="passed"]').first().isVisible()).toBe(false);
        expect(await page.locator('tr[data-status="failed"]').first().isVisible()).toBe(true);
        await page.locator('label[for="show-all"]').click();

        const shot = join(dir, 'report.png');
        await page.screenshot({ path: shot, fullPage: true });
        const png = readFileSync(shot);
        expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
        expect(statSync(shot).size).toBeGreaterThan(10_000);
        // To look at the page: SVC_REPORT_SCREENSHOT=/tmp/x.png npx vitest run reports/html.test.ts
        if (process.env.SVC_REPORT_SCREENSHOT) copyFileSync(shot, process.env.SVC_REPORT_SCREENSHOT);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
