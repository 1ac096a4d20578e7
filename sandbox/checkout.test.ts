// The hosted checkout behind payment_link (interface: Create Order, Effect; P-OPS-1 for the states it
// moves an order to): escaping, the form's flows in-process, and one real browser on loopback.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from './checkout-page.js';
import { OPERATION_PATHS, startSandbox } from './index.js';
import { createdOrder, edited, orderBody, orderSandbox } from './operations/order-test-support.js';
import { signedRequest, type Answer } from './test-support.js';

const NASTY_NOTE = `<script>alert("note")</script> & 'quoted' <b>gift</b>`;
const NASTY_NAME = `O'Brien "Bob" <img src=x onerror=alert(1)> & Sons`;

describe('escapeHtml', () => {
  it('replaces the five characters that matter in content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
    expect(escapeHtml('José Müller ₹ 🎁')).toBe('José Müller ₹ 🎁');
  });
});

describe('GET /checkout/{svc_order_id}', () => {
  it('shows order id, amount, currency, status and the payment form, with merchant text escaped', async () => {
    const s = orderSandbox();
    const body = edited(
      orderBody('ORD-<1>&', { order_note: NASTY_NOTE, order_amount: 2500.05, order_currency: 'EUR' }),
      'customer.name',
      NASTY_NAME,
    );
    const page = await s.page(await createdOrder(s, body));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.html).toContain('ORD-&lt;1&gt;&amp;');
    expect(page.html).toContain('2500.05 EUR');
    expect(page.html).toContain('data-state="UN_PAID"');
    expect(page.html).toContain(escapeHtml(NASTY_NOTE));
    expect(page.html).toContain(escapeHtml(NASTY_NAME));
    expect(page.html).not.toContain('<script');
    expect(page.html).not.toContain('<img');
    expect(page.html).not.toContain('<b>gift');
    for (const method of ['upi', 'qr', 'netbanking', 'card', 'wallet']) expect(page.html).toContain(`value="${method}"`);
    for (const label of ['Pay (success)', 'Simulate failure', 'Simulate pending network confirmation']) expect(page.html).toContain(label);
    // self-contained: nothing loaded from anywhere
    expect(page.html).not.toMatch(/<(script|link|img|iframe)\b/i);
  });

  it('answers 404 HTML for an unknown id, escaping the id it echoes', async () => {
    const s = orderSandbox();
    const page = await s.page('SVC-%3Cb%3Enope');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toContain('SVC-&lt;b&gt;nope');
  });

  it("shows a paid order's state and no form", async () => {
    const s = orderSandbox();
    const svc = await createdOrder(s, orderBody('ORD-PAID'));
    await s.pay(svc, { method: 'card', outcome: 'success' });
    const page = await s.page(svc);
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-state="PAID"');
    expect(page.html).not.toContain('<form');
  });
});

describe('POST /checkout/{svc_order_id}', () => {
  it.each([
    ['success', 'PAID', 'Payment successful'],
    ['failure', 'FAILED', 'Payment failed'],
    ['pending', 'PROCESSING', 'Payment processing'],
  ])('outcome %s moves UN_PAID to %s and links back to return_url without redirecting', async (outcome, state, heading) => {
    const s = orderSandbox();
    const svc = await createdOrder(s, orderBody('ORD-PAY'));
    const result = await s.pay(svc, { method: 'upi', outcome });
    expect(result.status).toBe(200);
    expect(result.headers.get('location')).toBeNull();
    expect(result.html).not.toMatch(/http-equiv/i);
    expect(result.html).toContain(`<h1>${heading}</h1>`);
    expect(result.html).toContain(`href="${escapeHtml(orderBody(0).return_url as string)}"`);
    expect((await s.status('ORD-PAY')).json.data.order_status).toBe(state);
  });

  it('a pending payment settles to PAID after settleSeconds, and the page says so', async () => {
    const s = orderSandbox({ settleSeconds: 10 });
    const svc = await createdOrder(s, orderBody('ORD-PEND'));
    expect((await s.pay(svc, { method: 'qr', outcome: 'pending' })).html).toContain('about 10 s');
    s.advance(10);
    expect((await s.page(svc)).html).toContain('data-state="PAID"');
  });

  it.each([
    [{ outcome: 'success' }, 'payment method'],
    [{ method: 'bitcoin', outcome: 'success' }, 'payment method'],
    [{ method: 'upi' }, 'Choose one of'],
    [{ method: 'upi', outcome: 'maybe' }, 'Choose one of'],
  ])('an invalid form %j answers 400 HTML and changes nothing', async (fields, says) => {
    const s = orderSandbox();
    const svc = await createdOrder(s, orderBody('ORD-INV'));
    const result = await s.pay(svc, fields);
    expect(result.status).toBe(400);
    expect(result.headers.get('content-type')).toMatch(/^text\/html/);
    expect(result.html).toContain(says);
    expect((await s.status('ORD-INV')).json.data.order_status).toBe('UN_PAID');
  });

  it('a body that is not form-encoded answers 400', async () => {
    const s = orderSandbox();
    const svc = await createdOrder(s, orderBody('ORD-JSON'));
    expect((await s.pay(svc, { method: 'upi', outcome: 'success' }, 'application/json')).status).toBe(400);
  });

  it('an order that is no longer UN_PAID answers 409 saying its state', async () => {
    const s = orderSandbox();
    const svc = await createdOrder(s, orderBody('ORD-TWICE'));
    await s.pay(svc, { method: 'upi', outcome: 'failure' });
    const again = await s.pay(svc, { method: 'upi', outcome: 'success' });
    expect(again.status).toBe(409);
    expect(again.html).toContain('The order is FAILED');
    expect((await s.status('ORD-TWICE')).json.data.order_status).toBe('FAILED');
  });

  it('an unknown order answers 404', async () => {
    const s = orderSandbox();
    expect((await s.pay('SVC-99999999', { method: 'upi', outcome: 'success' })).status).toBe(404);
  });
});

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('checkout in a real browser', () => {
  it.skipIf(!existsSync(CHROMIUM))(
    `a customer pays with UPI in headless Chromium, then Order Status says PAID (skipped when ${CHROMIUM} is absent)`,
    async () => {
      const sandbox = await startSandbox({ port: 0 });
      const shots = await mkdtemp(join(tmpdir(), 'svc-checkout-'));
      let browser: Browser | undefined;
      // A signed call over the socket: signed like the in-process ones, sent to the real base URL.
      const send = async (path: string, payload: unknown) => {
        const signed = signedRequest(sandbox.app, { path, payload });
        const response = await fetch(sandbox.baseUrl + path, { method: 'POST', headers: signed.headers, body: await signed.text() });
        return { status: response.status, json: (await response.json()) as Answer['json'] };
      };
      try {
        const body = orderBody('ORD-BROWSER', { order_note: NASTY_NOTE });
        const created = await send(OPERATION_PATHS.createOrder, body);
        expect(created.status).toBe(201);
        const link: string = created.json.return_data.payment_link;
        expect(link.startsWith(`${sandbox.baseUrl}/checkout/`)).toBe(true);

        browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
        const page = await browser.newPage();
        // Only the loopback sandbox may be reached; anything else (the return_url included) is refused.
        await page.route('**/*', (route) => (route.request().url().startsWith(`${sandbox.baseUrl}/`) ? route.continue() : route.abort()));
        await page.goto(link);
        expect(await page.title()).toBe('Pay Demo Merchant A');
        expect(await page.getByText(NASTY_NOTE).count()).toBe(1);
        await page.getByLabel('UPI').check();
        await page.getByRole('button', { name: 'Pay (success)' }).click();
        await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 10_000 });
        expect(page.url()).toBe(link);
        expect(await page.getByRole('link', { name: /Return to/ }).getAttribute('href')).toBe(body.return_url);

        const shot = join(shots, 'checkout-result.png');
        await page.screenshot({ path: shot, fullPage: true });
        const png = await readFile(shot);
        expect(png.length).toBeGreaterThan(1000);
        expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

        const status = await send(OPERATION_PATHS.orderStatus, { order_id: 'ORD-BROWSER' });
        expect(status.json.data).toMatchObject({ order_status: 'PAID', order_id: 'ORD-BROWSER' });
      } finally {
        await browser?.close();
        await sandbox.close();
        await rm(shots, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
