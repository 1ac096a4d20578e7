import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { nestedDeeperThan } from '../common/json-depth.js';
import { getPath, setPath } from '../core/predicates.js';
import { describeErrors, isValid, loadSchema, validateSchema } from '../schemas/index.js';
import { JsonTreeError, parseJsonTree } from '../signer/json-tree.js';

import { DEFAULT_RETRY_WITHIN_SECONDS } from '../core/webhooks.js';

// The config's shape mirrors schemas/config.schema.json, so it lives beside the schema's other types.
export type { OperationKey, OperationLocation, TargetConfig } from '../schemas/types.js';
import type { OperationKey, OperationLocation, TargetConfig } from '../schemas/types.js';

/** Bad or missing configuration: one line naming the problem and the fix; the command exits 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'SVC_CONFIG';
}

/** P-CFG's environment variables and the config key each one sets, over the config file's. */
const ENV_KEYS = {
  SVC_BASE_URL: 'baseUrl',
  SVC_ENVIRONMENT: 'environment',
  SVC_API_KEY: 'merchant.apiKey',
  SVC_SECRET_KEY: 'merchant.secretKey',
  SVC_WALLET_ID: 'merchant.walletId',
  SVC_OTHER_API_KEY: 'otherMerchant.apiKey',
  SVC_OTHER_SECRET_KEY: 'otherMerchant.secretKey',
  SVC_OTHER_WALLET_ID: 'otherMerchant.walletId',
  SVC_OTHER_ENV_API_KEY: 'otherEnvironment.apiKey',
  SVC_OTHER_ENV_SECRET_KEY: 'otherEnvironment.secretKey',
  SVC_OTHER_ENV_WALLET_ID: 'otherEnvironment.walletId',
} as const;

/** Every variable P-CFG reads (a command that gives a child process other coordinates leaves them out). */
export const TARGET_ENV_NAMES: readonly string[] = Object.keys(ENV_KEYS);

/** The config's coordinates as those variables: a driver reaches the target as the run does. */
export function targetVariables(config: TargetConfig): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ENV_KEYS).flatMap(([name, path]) => {
      const value = getPath(config, path);
      return typeof value === 'string' ? [[name, value]] : [];
    }),
  );
}

/** True when P-CFG's environment variables point the run at a target without a config file. */
export function envNamesTarget(env: Record<string, string | undefined>): boolean {
  return Boolean(env.SVC_BASE_URL?.trim());
}

/** A secret that did not reach a CI job arrives empty, and certifying the embedded sandbox instead would
 *  be a false all-clear: an empty SVC_* or credentials with no base URL are a usage error. */
export function checkTargetEnv(env: Record<string, string | undefined>, configFile: string | undefined): void {
  const empty = TARGET_ENV_NAMES.filter((name) => env[name] !== undefined && env[name].trim() === '');
  if (empty.length > 0) {
    const list = empty.join(', ');
    throw new ConfigError(
      `${list} ${empty.length > 1 ? 'are' : 'is'} set but empty (a CI secret or variable that did not reach this job?): ` +
        `give ${empty.length > 1 ? 'them values' : 'it a value'}, or unset ${empty.length > 1 ? 'them' : 'it'}${configFile === undefined ? " (with no SVC_* variable and no --config, run certifies the kit's embedded sandbox)" : ''}`,
    );
  }
  const set = TARGET_ENV_NAMES.filter((name) => env[name] !== undefined);
  if (configFile === undefined && env.SVC_BASE_URL === undefined && set.length > 0) {
    throw new ConfigError(
      `${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set but SVC_BASE_URL is not: set SVC_BASE_URL (or give --config with a baseUrl) to the deployment to certify, ` +
        `or unset ${set.length > 1 ? 'them' : 'it'} to certify the kit's embedded sandbox`,
    );
  }
}

/** Reads the config file (when given), applies the SVC_* variables over it, validates the result. */
export async function loadConfig(file: string | undefined, env: Record<string, string | undefined>, cwd: string): Promise<TargetConfig> {
  checkTargetEnv(env, file);
  let raw: Record<string, unknown> = {};
  if (file !== undefined) {
    let text: string;
    try {
      // A byte-order mark, as some Windows editors write, is not part of the JSON (RFC 8259 lets a reader ignore it).
      text = (await readFile(resolve(cwd, file), 'utf8')).replace(/^\uFEFF/, '');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
      throw new ConfigError(`cannot read config ${file}: ${reason}`);
    }
    try {
      raw = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new ConfigError(
        `config ${file} is not JSON${jsonErrorPlace(text)}; see P-CFG for its shape (svc-conformance serve --config-out writes an example)`,
      );
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new ConfigError(`config ${file} must be a JSON object (see P-CFG)`);
    // Before anything walks it recursively (the copy below, the schema): a deep file is a config error.
    if (nestedDeeperThan(raw, MAX_CONFIG_DEPTH))
      throw new ConfigError(`config ${file} nests objects or arrays more than ${MAX_CONFIG_DEPTH} levels deep; P-CFG's deepest key has 4`);
    const misplaced = misplacedKeys(raw);
    if (misplaced.length > 0) {
      const [first] = misplaced;
      throw new ConfigError(
        `config ${file} has ${misplaced.map(({ key, section }) => `"${key}" where it belongs under "${section}"`).join(', ')}: ` +
          `P-CFG nests them, e.g. { "${first!.section}": { "${first!.key}": … } }`,
      );
    }
  }
  const merged = structuredClone(raw);
  for (const [name, path] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value !== undefined && value !== '') setPath(merged, path, value);
  }
  checkPartialSections(merged, raw, env, file);
  if (merged.environment === undefined && merged.baseUrl !== undefined) merged.environment = inferEnvironment(merged);

  if (!isValid('config', merged)) {
    const where = file ? `config ${file} is` : 'the SVC_* environment variables are';
    const first = describeErrors(validateSchema('config', merged).errors.slice(0, 1));
    throw new ConfigError(`${where} invalid: ${first}${hint(first)}`);
  }
  const where = file !== undefined && env.SVC_BASE_URL === undefined ? `"baseUrl" in config ${file}` : 'SVC_BASE_URL';
  checkBaseUrl(merged.baseUrl, where);
  // A team's check modules are named relative to the config file that lists them.
  if (merged.checks !== undefined)
    merged.checks = merged.checks.map((path) => resolve(cwd, file === undefined ? '.' : dirname(file), path));
  return merged;
}

/** A section variables started but nothing completes (SVC_OTHER_SECRET_KEY, no other API key): names
 *  the variable that completes it (never a value), as the schema alone says only "required property". */
function checkPartialSections(
  merged: Record<string, unknown>,
  raw: Record<string, unknown>,
  env: Record<string, string | undefined>,
  file: string | undefined,
): void {
  // The keys a section needs once it is there at all, as config.schema.json says.
  const sections = loadSchema('config').properties as Record<string, { required?: string[] }>;
  for (const [section, { required = [] }] of Object.entries(sections)) {
    const variables = Object.entries(ENV_KEYS).filter(([, path]) => path.startsWith(`${section}.`));
    const given = variables.filter(([name]) => env[name] !== undefined).map(([name]) => name);
    const values = merged[section];
    if (given.length === 0 || values === null || typeof values !== 'object') continue;
    const missing = required.filter((key) => (values as Record<string, unknown>)[key] === undefined);
    if (missing.length === 0) continue;
    const names = variables.filter(([, path]) => missing.some((key) => path === `${section}.${key}`)).map(([name]) => name);
    const keys = missing.map((key) => `"${key}"`);
    // Only an optional section that the variables alone began goes away when they are unset.
    const droppable = section !== 'merchant' && raw[section] === undefined;
    throw new ConfigError(
      `${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set, but ${section} has no ${keys.join(' or ')}: ` +
        `set ${names.join(' and ')} too${file !== undefined ? ` (or give ${keys.join(' and ')} under "${section}" in config ${file})` : ''}` +
        (droppable ? `, or unset ${given.length > 1 ? 'them' : 'it'}` : ''),
    );
  }
}

/** Where JSON.parse stopped, as " (line L, column C)", or "". Never its own message: V8 quotes the text
 *  around the error, and a config or a body holds secrets. */
export function jsonErrorPlace(text: string): string {
  try {
    parseJsonTree(text);
  } catch (error) {
    // A RangeError: nested too deep for the parser's recursion; the place is then not said.
    if (!(error instanceof JsonTreeError)) return '';
    const lines = text.slice(0, error.offset).split('\n');
    return ` (line ${lines.length}, column ${lines.at(-1)!.length + 1})`;
  }
  return '';
}

/** Keys P-CFG puts in a section found at the top ("apiKey" beside "baseUrl"), each with its section:
 *  read from the schema, which alone says only "must NOT have additional properties". */
function misplacedKeys(config: Record<string, unknown>): Array<{ key: string; section: string }> {
  const sections = (loadSchema('config').properties ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
  return Object.keys(config)
    .filter((key) => !Object.hasOwn(sections, key))
    .flatMap((key) => {
      const section = Object.keys(sections).find((name) => Object.hasOwn(sections[name]!.properties ?? {}, key));
      return section === undefined ? [] : [{ key, section }];
    });
}

/** Deeper than any P-CFG config could be; the schema refuses the keys long before this. */
const MAX_CONFIG_DEPTH = 32;

/** The schema's "uri" format accepts what no HTTP client can use (port 99999, "host:80:80"): the base URL
 *  must parse as a WHATWG URL with a host. */
function checkBaseUrl(baseUrl: string, where: string): void {
  if (!URL.canParse(baseUrl)) {
    const port = /^https?:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(baseUrl)?.[1];
    const why =
      port !== undefined && Number(port) > 65_535
        ? `port ${port} is above 65535`
        : 'it does not parse as a URL (a second ":port", a space, a bracket?)';
    throw new ConfigError(
      `${where} ${JSON.stringify(baseUrl)} is not a usable base URL: ${why}; give e.g. https://sandbox.example.test or http://127.0.0.1:4010`,
    );
  }
  const url = new URL(baseUrl);
  if (url.hostname === '') throw new ConfigError(`${where} ${JSON.stringify(baseUrl)} has no host; give e.g. https://sandbox.example.test`);
  if (url.port === '0')
    throw new ConfigError(`${where} ${JSON.stringify(baseUrl)} has port 0, which nothing listens on; give the port the target listens on`);
  // Each operation's path is appended to the base URL: after a query it would land in the query
  // (…?k=…/api/v3/…). The query is not shown: it may carry a key.
  if (/[?#]/.test(baseUrl)) {
    const base = `${url.origin}${url.pathname.replace(/\/$/, '')}`;
    throw new ConfigError(
      `${where} has a query or fragment after ${base}: operation paths are appended to the base URL, so give it without "?…" or "#…", e.g. ${base}`,
    );
  }
}

/** Sandbox unless a key says production: the production guard (P-ENV-3) looks at keys too. */
function inferEnvironment(config: Record<string, unknown>): 'sandbox' | 'production' {
  const merchant = config.merchant as { apiKey?: string; secretKey?: string } | undefined;
  return merchant?.apiKey?.startsWith('pk_live_') || merchant?.secretKey?.startsWith('sk_live_') ? 'production' : 'sandbox';
}

function hint(problem: string): string {
  if (/otherMerchant/.test(problem) && /required/.test(problem))
    return ' (set it in the config file, or SVC_OTHER_API_KEY and SVC_OTHER_SECRET_KEY)';
  if (/merchant/.test(problem) && /required/.test(problem))
    return ' (set it in the config file, or SVC_API_KEY, SVC_SECRET_KEY and SVC_WALLET_ID)';
  if (/baseUrl/.test(problem)) return ' (set "baseUrl" or SVC_BASE_URL to the target, e.g. https://sandbox.example.test)';
  return '';
}

/** P-ENV-3: a run that would create records against production needs --allow-production. */
export function isProduction(config: TargetConfig): boolean {
  const keys = [config.merchant.apiKey, config.merchant.secretKey];
  return config.environment === 'production' || keys.some((k) => k.startsWith('pk_live_') || k.startsWith('sk_live_'));
}

export function toleranceOf(config: TargetConfig): number {
  return config.profile?.timestampToleranceSeconds ?? 300;
}

/** P-HOOK-3: the first 3 retries arrive within this long of the first attempt, seconds. */
export function retryWithinSecondsOf(config: TargetConfig): number {
  return config.profile?.webhooks?.retryWithinSeconds ?? DEFAULT_RETRY_WITHIN_SECONDS;
}

/** A configured extension operation, or undefined (absent or null: the target lacks it). */
export function operationOf(config: TargetConfig, key: OperationKey): OperationLocation | undefined {
  return config.profile?.operations?.[key] ?? undefined;
}
