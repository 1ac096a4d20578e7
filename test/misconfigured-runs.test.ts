// Configuration is not the target's failure (P-CLI, Verdicts v1.3): a run in which no correctly signed
// request was taken is inconclusive, naming the likely cause, against the reference sandbox and
// against a deployment that is not it (the sandbox behind a front with no control paths). It stays
// the target's failure when the target also took a request signed wrong, or answered a 5xx. Before,
// each misconfiguration here was NOT CONFORMANT, exit 1, with 39 to 52 MUST failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../core/clock-test-support.js';
import { exitCodeOf } from '../core/verdict.js';
import type { Report } from '../core/report.js';
import { startSandbox, type FaultName, type RunningSandbox } from '../sandbox/index.js';
import type { TargetConfig } from '../suites/config.js';
import { runNumberAt } from '../suites/settings.js';
import { realFront, type RealFront } from '../suites/model/real-front-test-support.js';
import { ConformanceRun } from '../suites/run.js';

const lastCharacterChanged = (secret: string) => `${secret.slice(0, -1)}${secret.endsWith('f') ? 'e' : 'f'}`;

/** The misconfigurations a new user makes, and what the verdict's reason must name. */
const MISTAKES: ReadonlyArray<[string, (c: TargetConfig) => TargetConfig, RegExp]> = [
  [
    'one character of merchant.secretKey changed',
    (c) => ({ ...c, merchant: { ...c.merchant, secretKey: lastCharacterChanged(c.merchant.secretKey) } }),
    /the configured keys are likely wrong, not the target/,
  ],
  [
    "the other merchant's secret as merchant.secretKey",
    (c) => ({ ...c, merchant: { ...c.merchant, secretKey: c.otherMerchant!.secretKey } }),
    /the configured keys are likely wrong, not the target: .*\(merchant\.secretKey is the same as otherMerchant\.secretKey/,
  ],
  [
    'a base URL with a wrong path (…/v9)',
    (c) => ({ ...c, baseUrl: `${c.baseUrl}/v9` }),
    /the base URL or the operation paths are likely wrong, not the target: check baseUrl \(http:\/\/127\.0\.0\.1:\d+\/v9;/,
  ],
];

async function judge(config: TargetConfig, clock = virtualClock()): Promise<Report> {
  const startedAt = new Date();
  const run = await ConformanceRun.open({
    target: { config },
    seed: 20261205,
    runs: 2,
    runNumber: runNumberAt(startedAt.getTime()),
    clock,
    skip: ['HOOK-'],
  });
  try {
    return run.report(await run.run(), { strict: false, startedAt, version: 'test' });
  } finally {
    await run.close();
  }
}

const withoutWebhooks = ({ webhooks: _, ...config }: TargetConfig): TargetConfig => config;

describe.each([
  ['the reference sandbox', 'sandbox'],
  ['a deployment that is not the reference sandbox', 'front'],
] as const)('misconfigured runs against %s: inconclusive, the cause named', (_name, kind) => {
  const clock = virtualClock();
  let sandbox: RunningSandbox;
  let front: RealFront | undefined;
  let config: TargetConfig;
  beforeAll(async () => {
    if (kind === 'front') {
      front = await realFront({}, clock);
      config = withoutWebhooks(front.target().state.settings.config);
    } else {
      sandbox = await startSandbox({ port: 0, clock: clock.now });
      config = withoutWebhooks(sandbox.config);
    }
  });
  afterAll(() => (front !== undefined ? front.close() : sandbox.close()));

  it.each(MISTAKES)(
    '%s: exit 2',
    async (_mistake, edit, cause) => {
      const report = await judge(edit(structuredClone(config)), clock);
      expect(report.verdict).toBe('inconclusive');
      expect(exitCodeOf(report)).toBe(2);
      expect(report.reasons?.[0]).toMatch(/^no correctly signed request was taken by the target/);
      expect(report.reasons?.[0]).toMatch(cause);
    },
    60_000,
  );

  it('the same target, configured right: conformant', async () => {
    const report = await judge(structuredClone(config), clock);
    expect(report.requirements.filter((r) => r.status === 'failed' && r.level === 'MUST').map((r) => r.id)).toEqual([]);
    expect(report.verdict).toBe('conformant');
  }, 60_000);
});

describe('a fault no configuration explains: not conformant, the cause said up front', () => {
  it.each<[string, FaultName, boolean, RegExp]>([
    [
      'wrong keys, and a request without X-SIGNATURE taken',
      'auth-accept-missing-signature',
      true,
      /requests signed wrong or not at all were \(AUTH-MISSING-SIGNATURE/,
    ],
    [
      'the right keys, refused, and the digest in base64 taken',
      'auth-verify-base64',
      false,
      /one signed a known wrong way was: .*\(base64\)/,
    ],
  ])(
    '%s',
    async (_name, fault, wrongKeys, hint) => {
      const clock = virtualClock();
      const sandbox = await startSandbox({ port: 0, clock: clock.now, faults: [fault] });
      try {
        const config = withoutWebhooks(structuredClone(sandbox.config as TargetConfig));
        const report = await judge(wrongKeys ? MISTAKES[0]![1](config) : config, clock);
        expect(report.verdict).toBe('not-conformant');
        expect(report.hints?.[0]).toMatch(hint);
      } finally {
        await sandbox.close();
      }
    },
    60_000,
  );

  it('wrong keys against a target that verifies another scheme: the keys are named, as nothing more can be told', async () => {
    const clock = virtualClock();
    const sandbox = await startSandbox({ port: 0, clock: clock.now, faults: ['auth-verify-base64'] });
    try {
      const report = await judge(MISTAKES[0]![1](withoutWebhooks(structuredClone(sandbox.config as TargetConfig))), clock);
      expect(report.verdict).toBe('inconclusive');
      expect(report.reasons?.[0]).toMatch(/the configured keys are likely wrong/);
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
