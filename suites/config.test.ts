// P-CFG's environment variables (v1.3: every secret and key, the other merchant's and environment's
// too): each over its key of the file, none read as "no target", and a partial set named.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTargetEnv, ConfigError, loadConfig, TARGET_ENV_NAMES } from './config.js';
import { redactor } from './redact.js';

const BASE = {
  SVC_BASE_URL: 'https://sbx.example.test',
  SVC_API_KEY: 'pk_test_env_merchant',
  SVC_SECRET_KEY: 'sk_test_env_merchant_secret',
  SVC_WALLET_ID: 'WAL-ENV-1',
};
const OTHERS = {
  SVC_OTHER_API_KEY: 'pk_test_env_other',
  SVC_OTHER_SECRET_KEY: 'sk_test_env_other_secret',
  SVC_OTHER_WALLET_ID: 'WAL-ENV-OTHER',
  SVC_OTHER_ENV_API_KEY: 'pk_live_env_other_env',
  SVC_OTHER_ENV_SECRET_KEY: 'sk_live_env_other_env_secret',
  SVC_OTHER_ENV_WALLET_ID: 'WAL-ENV-LIVE',
};
const SECRETS = [BASE.SVC_SECRET_KEY, OTHERS.SVC_OTHER_SECRET_KEY, OTHERS.SVC_OTHER_ENV_SECRET_KEY];

function configFile(config: unknown): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
  writeFileSync(join(dir, 'target.json'), JSON.stringify(config));
  return { dir, file: 'target.json' };
}

/** The ConfigError `load` throws: its message, checked to name no secret. */
async function refusal(load: () => Promise<unknown>): Promise<string> {
  const error = await load().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  const { message } = error as ConfigError;
  for (const secret of SECRETS) expect(message).not.toContain(secret);
  return message;
}

describe('P-CFG environment variables', () => {
  it('are the eleven of profile v1.3', () => {
    expect(TARGET_ENV_NAMES).toEqual([
      'SVC_BASE_URL',
      'SVC_ENVIRONMENT',
      'SVC_API_KEY',
      'SVC_SECRET_KEY',
      'SVC_WALLET_ID',
      'SVC_OTHER_API_KEY',
      'SVC_OTHER_SECRET_KEY',
      'SVC_OTHER_WALLET_ID',
      'SVC_OTHER_ENV_API_KEY',
      'SVC_OTHER_ENV_SECRET_KEY',
      'SVC_OTHER_ENV_WALLET_ID',
    ]);
  });

  it('make a whole config with no file: the other merchant and environment from SVC_OTHER_* and SVC_OTHER_ENV_*', async () => {
    const config = await loadConfig(undefined, { ...BASE, ...OTHERS }, tmpdir());
    expect(config).toMatchObject({
      baseUrl: BASE.SVC_BASE_URL,
      merchant: { apiKey: BASE.SVC_API_KEY, secretKey: BASE.SVC_SECRET_KEY, walletId: BASE.SVC_WALLET_ID },
      otherMerchant: { apiKey: OTHERS.SVC_OTHER_API_KEY, secretKey: OTHERS.SVC_OTHER_SECRET_KEY, walletId: OTHERS.SVC_OTHER_WALLET_ID },
      otherEnvironment: {
        apiKey: OTHERS.SVC_OTHER_ENV_API_KEY,
        secretKey: OTHERS.SVC_OTHER_ENV_SECRET_KEY,
        walletId: OTHERS.SVC_OTHER_ENV_WALLET_ID,
      },
    });
    // The run's redactor is made from the config: a secret given only in a variable is one it knows.
    const redact = redactor(config);
    for (const secret of SECRETS) expect(redact(`x ${secret} ${Buffer.from(secret).toString('hex')} y`)).not.toContain(secret.slice(3));
  });

  it('override the keys of the file, each on its own; the rest of the section stays the file’s', async () => {
    const { dir, file } = configFile({
      baseUrl: 'https://file.example.test',
      environment: 'sandbox',
      merchant: { apiKey: 'pk_test_file', secretKey: 'sk_test_file', walletId: 'WAL-FILE' },
      otherMerchant: { apiKey: 'pk_test_file_other', secretKey: 'sk_test_file_other', walletId: 'WAL-FILE-OTHER' },
      otherEnvironment: { apiKey: 'pk_live_file', walletId: 'WAL-FILE-LIVE' },
    });
    const config = await loadConfig(
      file,
      { SVC_OTHER_SECRET_KEY: OTHERS.SVC_OTHER_SECRET_KEY, SVC_OTHER_ENV_SECRET_KEY: OTHERS.SVC_OTHER_ENV_SECRET_KEY },
      dir,
    );
    expect(config.otherMerchant).toEqual({
      apiKey: 'pk_test_file_other',
      secretKey: OTHERS.SVC_OTHER_SECRET_KEY,
      walletId: 'WAL-FILE-OTHER',
    });
    expect(config.otherEnvironment).toEqual({
      apiKey: 'pk_live_file',
      secretKey: OTHERS.SVC_OTHER_ENV_SECRET_KEY,
      walletId: 'WAL-FILE-LIVE',
    });
  });

  it('complete a section the file started: the other merchant’s keys in the file, its secret in the environment', async () => {
    const { dir, file } = configFile({ otherMerchant: { apiKey: 'pk_test_file_other' } });
    const config = await loadConfig(file, { ...BASE, SVC_OTHER_SECRET_KEY: OTHERS.SVC_OTHER_SECRET_KEY }, dir);
    expect(config.otherMerchant).toEqual({ apiKey: 'pk_test_file_other', secretKey: OTHERS.SVC_OTHER_SECRET_KEY });
  });

  it('the other environment takes any of its keys alone', async () => {
    for (const name of ['SVC_OTHER_ENV_API_KEY', 'SVC_OTHER_ENV_SECRET_KEY', 'SVC_OTHER_ENV_WALLET_ID'] as const) {
      const config = await loadConfig(undefined, { ...BASE, [name]: OTHERS[name] }, tmpdir());
      expect(Object.values(config.otherEnvironment ?? {}), name).toEqual([OTHERS[name]]);
    }
  });

  it.each<[string, Record<string, string>, string]>([
    [
      'the other merchant’s secret without its API key',
      { SVC_OTHER_SECRET_KEY: OTHERS.SVC_OTHER_SECRET_KEY },
      'SVC_OTHER_SECRET_KEY is set, but otherMerchant has no "apiKey": set SVC_OTHER_API_KEY too, or unset it',
    ],
    [
      'the other merchant’s API key without its secret',
      { SVC_OTHER_API_KEY: OTHERS.SVC_OTHER_API_KEY },
      'SVC_OTHER_API_KEY is set, but otherMerchant has no "secretKey": set SVC_OTHER_SECRET_KEY too, or unset it',
    ],
    [
      'the other merchant’s wallet alone',
      { SVC_OTHER_WALLET_ID: OTHERS.SVC_OTHER_WALLET_ID },
      'SVC_OTHER_WALLET_ID is set, but otherMerchant has no "apiKey" or "secretKey": set SVC_OTHER_API_KEY and SVC_OTHER_SECRET_KEY too, or unset it',
    ],
  ])('refuse %s, naming the variable that completes it (exit 2)', async (_name, env, message) => {
    expect(await refusal(() => loadConfig(undefined, { ...BASE, ...env }, tmpdir()))).toBe(message);
  });

  it('an other merchant the file began is completed, not dropped: no "unset" then', async () => {
    const { dir, file } = configFile({ otherMerchant: { walletId: 'WAL-FILE-OTHER' } });
    expect(await refusal(() => loadConfig(file, { ...BASE, SVC_OTHER_SECRET_KEY: OTHERS.SVC_OTHER_SECRET_KEY }, dir))).toBe(
      'SVC_OTHER_SECRET_KEY is set, but otherMerchant has no "apiKey": set SVC_OTHER_API_KEY too (or give "apiKey" under "otherMerchant" in config target.json)',
    );
  });

  it('a partial set beside a file names the file’s key too', async () => {
    const { dir, file } = configFile({ baseUrl: 'https://file.example.test', environment: 'sandbox' });
    expect(await refusal(() => loadConfig(file, { SVC_SECRET_KEY: BASE.SVC_SECRET_KEY }, dir))).toBe(
      'SVC_SECRET_KEY is set, but merchant has no "apiKey" or "walletId": set SVC_API_KEY and SVC_WALLET_ID too ' +
        '(or give "apiKey" and "walletId" under "merchant" in config target.json)',
    );
  });

  it.each(TARGET_ENV_NAMES.filter((name) => name.startsWith('SVC_OTHER_')))(
    '%s set but empty (a CI secret that did not reach the job) is a config error naming it, before anything is certified',
    async (name) => {
      expect(await refusal(() => loadConfig(undefined, { ...BASE, ...OTHERS, [name]: ' ' }, tmpdir()))).toMatch(
        new RegExp(`^${name} is set but empty \\(a CI secret or variable that did not reach this job\\?\\): give it a value, or unset it`),
      );
      expect(() => checkTargetEnv({ [name]: '' }, undefined)).toThrow(`${name} is set but empty`);
    },
  );

  it('without SVC_BASE_URL or a config file they name no target, and never leave the embedded sandbox to be certified silently', () => {
    expect(() => checkTargetEnv({ SVC_OTHER_SECRET_KEY: OTHERS.SVC_OTHER_SECRET_KEY }, undefined)).toThrow(
      /^SVC_OTHER_SECRET_KEY is set but SVC_BASE_URL is not: set SVC_BASE_URL \(or give --config with a baseUrl\)/,
    );
    expect(() => checkTargetEnv({ SVC_OTHER_ENV_WALLET_ID: 'W', SVC_OTHER_API_KEY: 'K' }, undefined)).toThrow(
      /^SVC_OTHER_API_KEY, SVC_OTHER_ENV_WALLET_ID are set but SVC_BASE_URL is not/,
    );
    // A config file names the target: the variables then only complete it.
    expect(() => checkTargetEnv({ SVC_OTHER_SECRET_KEY: OTHERS.SVC_OTHER_SECRET_KEY }, 'target.json')).not.toThrow();
  });
});
