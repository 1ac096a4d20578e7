// judge --har on a browser's own HAR (P-TRAFFIC, issue 43): headless Chromium records a merchant page
// creating an order through the API, the customer paying on the checkout page, and the page asking
// Order Status; the kit judges both sides from Playwright's recordHar, and a faulty server is caught.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../core/report.js';
import { OPERATION_PATHS, startSandbox, type FaultName } from '../sandbox/index.js';
import { signedRequest } from '../sandbox/test-support.js';
import { orderBody } from '../sandbox/operations/order-test-support.js';
import { runCli } from './cli-harness.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'];

/** One browser for both tests, a context (and its HAR) each. */
let browser: Promise<Browser> | undefined;
afterAll(async () => (await browser)?.close());

/** The browser's traffic with a sandbox (with `faults`) as Playwright records it, and the sandbox's config beside it. */
async function browserHar(faults: FaultName[]): Promise<string> {
  const sandbox = await startSandbox({ port: 0, faults });
  const dir = mkdtempSync(join(tmpdir(), 'svc-browser-har-'));
  browser ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const context = await (await browser).newContext({ bypassCSP: true, recordHar: { path: join(dir, 'browser.har'), content: 'embed' } });
  try {
    const page = await context.newPage();
    await page.route('**/*', (route) => (route.request().url().startsWith(`${sandbox.baseUrl}/`) ? route.continue() : route.abort()));
    // A script on a page of the sandbox's origin calls the API, signed with the merchant's keys (computed
    // here): the pages' own policy forbids fetch, which only this test's browser is told to bypass.
    const call = async (path: string, payload: unknown) => {
      const signed = signedRequest(sandbox.app, { path, payload });
      const init = { method: 'POST', headers: Object.fromEntries(signed.headers), body: await signed.text() };
      return page.evaluate(
        async ([url, request]) => (await (await fetch(url, request)).json()) as { return_data?: { payment_link: string } },
        [sandbox.baseUrl + path, init] as const,
      );
    };
    await page.goto(`${sandbox.baseUrl}/checkout/start`);
    const created = await call(OPERATION_PATHS.createOrder, orderBody('ORD-HAR-1'));
    await page.goto(created.return_data!.payment_link);
    await page.getByLabel('UPI').check();
    await page.getByRole('button', { name: 'Pay (success)' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 10_000 });
    await call(OPERATION_PATHS.orderStatus, { order_id: 'ORD-HAR-1' });
    await context.close();
    writeFileSync(join(dir, 'target.json'), JSON.stringify(sandbox.config));
    return dir;
  } finally {
    await sandbox.close();
  }
}

async function judged(dir: string) {
  const result = await runCli(['judge', '--har', 'browser.har', '--config', 'target.json', '--report-dir', 'out'], { cwd: dir });
  return { ...result, report: JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report };
}
const failed = (report: Report) => report.requirements.filter((r) => r.status === 'failed').map((r) => r.id);

describe.concurrent('judge --har on the HAR a browser records', () => {
  it.skipIf(!existsSync(CHROMIUM))(
    `a page and a checkout that keep the rules: both sides conformant (skipped without ${CHROMIUM})`,
    async () => {
      const { code, stdout, report } = await judged(await browserHar([]));
      expect(failed(report), stdout).toEqual([]);
      expect(code, stdout).toBe(0);
      expect(report.sides).toMatchObject({ client: { verdict: 'conformant' }, server: { verdict: 'conformant' } });
      expect(stdout).toMatch(/POST \/api\/v3\/pg\/order\/create → 20[01]\n/);
      expect(stdout).toMatch(/GET \/checkout\/\S+ → 200\n/);
      expect(report.notes).toContainEqual(expect.stringMatching(/^traffic judges only what it exercised/));
    },
    60_000,
  );

  it.skipIf(!existsSync(CHROMIUM))(
    'a server whose create envelope is wrong: its side fails ORDER-ENVELOPE',
    async () => {
      const { code, report } = await judged(await browserHar(['order-code-mismatch']));
      expect(failed(report)).toEqual(['ORDER-ENVELOPE']);
      expect(code).toBe(1);
    },
    60_000,
  );
});
