// run --har FILE: every exchange of a run as HAR 1.2, valid against a schema written here from the
// HAR 1.2 specification, redacted like the evidence; and the evidence itself, which keeps every
// answer of the concurrent-duplicate race and says how many exchanges of another check it leaves out.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../core/report.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { CheckFailure, type Check } from '../suites/check.js';
import { sandboxTarget } from '../suites/check-test-support.js';
import { runCli } from './cli-harness.js';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const nameValue = { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' } } };
/** HAR 1.2 (the log, its creator and entries, each request, response, cache and timings), as the specification requires. */
const HAR_SCHEMA = {
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      properties: {
        version: { const: '1.2' },
        creator: { type: 'object', required: ['name', 'version'], properties: { name: { type: 'string' }, version: { type: 'string' } } },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
            properties: {
              startedDateTime: { type: 'string', format: 'date-time' },
              time: { type: 'number', minimum: 0 },
              request: {
                type: 'object',
                required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
                properties: {
                  method: { type: 'string' },
                  url: { type: 'string', format: 'uri' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: { type: 'array', items: nameValue },
                  queryString: { type: 'array', items: nameValue },
                  postData: {
                    type: 'object',
                    required: ['mimeType', 'text'],
                    properties: { mimeType: { type: 'string' }, text: { type: 'string' } },
                  },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
              response: {
                type: 'object',
                required: [
                  'status',
                  'statusText',
                  'httpVersion',
                  'cookies',
                  'headers',
                  'content',
                  'redirectURL',
                  'headersSize',
                  'bodySize',
                ],
                properties: {
                  status: { type: 'integer' },
                  statusText: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: { type: 'array', items: nameValue },
                  content: {
                    type: 'object',
                    required: ['size', 'mimeType'],
                    properties: { size: { type: 'integer' }, mimeType: { type: 'string' }, text: { type: 'string' } },
                  },
                  redirectURL: { type: 'string' },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
              cache: { type: 'object' },
              timings: {
                type: 'object',
                required: ['send', 'wait', 'receive'],
                properties: { send: { type: 'number' }, wait: { type: 'number' }, receive: { type: 'number' } },
              },
            },
          },
        },
      },
    },
  },
};

let sandbox: RunningSandbox;
let dir = '';
let har: { log: { entries: Array<{ request: { url: string; headers: Array<{ name: string; value: string }> }; comment: string }> } };
let report: Report;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, faults: ['dup-race'] });
  dir = mkdtempSync(join(tmpdir(), 'svc-har-'));
  writeFileSync(join(dir, 'target.json'), JSON.stringify(sandbox.config));
  const result = await runCli(
    ['run', '--config', 'target.json', '--only', 'DUP-CONCURRENT,AUTH-MISSING', '--har', 'traffic.har', '--report-dir', 'out'],
    { cwd: dir },
  );
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toContain(join(dir, 'traffic.har'));
  har = JSON.parse(readFileSync(join(dir, 'traffic.har'), 'utf8'));
  report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
}, 60_000);
afterAll(() => sandbox.close());

describe('run --har', () => {
  it('writes every exchange of the run as valid HAR 1.2', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(HAR_SCHEMA);
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    // The 8 racing creates, their follow-ups and the AUTH-MISSING-* requests: all of them, not the evidence's few.
    expect(har.log.entries.length).toBeGreaterThanOrEqual(11);
    expect(har.log.entries.every((e) => e.request.url.startsWith(sandbox.baseUrl))).toBe(true);
  });

  it('is redacted as the evidence is', () => {
    const text = readFileSync(join(dir, 'traffic.har'), 'utf8');
    expect(text).not.toContain(sandbox.config.merchant.secretKey);
    const signatures = har.log.entries.flatMap((e) =>
      e.request.headers.filter((h) => h.name.toLowerCase() === 'x-signature').map((h) => h.value),
    );
    expect(signatures.length).toBeGreaterThan(0);
    expect(new Set(signatures)).toEqual(new Set(['[redacted]']));
  });

  it('refuses, before the run, a --har whose folder does not exist', async () => {
    const result = await runCli(['run', '--config', 'target.json', '--har', 'no/such/folder/x.har'], { cwd: dir });
    expect(result).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance run: cannot write --har \S+x\.har: its folder does not exist or is not writable\n$/),
    });
  });
});

describe('the evidence', () => {
  it('of the concurrent-duplicate race keeps every answer, the first 201 among them', () => {
    const race = report.requirements.find((r) => r.id === 'DUP-CONCURRENT')!;
    expect(race.status).toBe('failed');
    const exchanges = race.evidence[0]!.exchanges;
    const creates = exchanges.filter((x) => x.request.url.endsWith('/order/create'));
    expect(creates.length).toBeGreaterThanOrEqual(8);
    expect(creates).toHaveLength(exchanges.length);
    expect(creates.filter((x) => x.response?.status === 201).length).toBeGreaterThan(1);
    // The warm-up reads that opened the race's connections are left out, and said to be.
    expect(race.evidence[0]!.leftOut).toBe(creates.length);
  });

  it('says how many exchanges of a check it leaves out', async () => {
    const target = await sandboxTarget();
    try {
      const many: Check = {
        id: 'many-requests',
        requirement: 'AUTH-ACCEPT',
        title: 'nine requests, then a failure',
        async run(ctx) {
          for (let i = 0; i < 9; i++)
            await ctx.send({
              label: `balance ${i}`,
              path: '/api/v3/banking/balance',
              payload: { svc_wallet_id: ctx.config.merchant.walletId, debit_account_type: 'svc_wallet' },
            });
          throw new CheckFailure('it failed after nine requests', { actual: 'nine answers' });
        },
      };
      const { outcome, meta } = await target.run(many);
      expect(outcome).toBe('failed');
      expect(meta.evidence).toHaveLength(5);
      expect(meta.evidenceLeftOut).toBe(4);
    } finally {
      await target.close();
    }
  });
});
