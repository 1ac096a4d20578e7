import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fc } from '../common/fast-check.js';
import { readPackageJson } from '../common/package-root.js';
import {
  invalidOrderCreateRequest,
  invalidTransactionInitiationRequest,
  orderCreateRequest,
  transactionInitiationRequest,
  type InvalidRequest,
} from '../generators/index.js';
import {
  ajvWithAllSchemas,
  precompiledModuleAt,
  precompiledValidators,
  schemaIds,
  schemasDigest,
  schemaUri,
  type PrecompiledModule,
  type SchemaId,
} from './index.js';
import { standaloneValidators } from './standalone.js';

/** The build's module text, evaluated as CommonJS would evaluate it (ajv's runtime pieces required from here). */
function evaluate(text: string): PrecompiledModule {
  const module = { exports: {} as Record<string, unknown> };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code under test is a generated module's text
  new Function('module', 'exports', 'require', text)(module, module.exports, createRequire(import.meta.url));
  return module.exports as unknown as PrecompiledModule;
}

const builtText = standaloneValidators();
const built = evaluate(builtText);
const precompiled = precompiledValidators(built)!;
const ajv = ajvWithAllSchemas();

/** A value, then each variant with one top-level key gone, null, a number, a string, an array: many error paths. */
function withDefects(value: unknown): unknown[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [value];
  const variants: unknown[] = [value];
  for (const key of Object.keys(value)) {
    const { [key]: _left, ...without } = value as Record<string, unknown>;
    variants.push(without);
    for (const other of [null, 7, 'x', [], {}]) variants.push({ ...value, [key]: other });
  }
  return variants;
}

const bodyOf = (request: InvalidRequest): unknown => (request.body.kind === 'json' ? request.body.value : request.body.text);

/** Values each schema is judged on: its examples, valid and not, and what the generators draw for it. */
function corpus(id: SchemaId): unknown[] {
  const examples = readPackageJson<Array<{ data: unknown }>>(`schemas/examples/${id}.json`).map((example) => example.data);
  const drawn: Partial<Record<SchemaId, unknown[]>> = {
    'order-create-request': [
      ...fc.sample(orderCreateRequest(), { seed: 1, numRuns: 40 }),
      ...fc.sample(invalidOrderCreateRequest(), { seed: 2, numRuns: 80 }).map(bodyOf),
    ],
    'transaction-initiation-request': [
      ...fc.sample(transactionInitiationRequest(), { seed: 3, numRuns: 40 }),
      ...fc.sample(invalidTransactionInitiationRequest(), { seed: 4, numRuns: 80 }).map(bodyOf),
    ],
  };
  return [...examples.flatMap(withDefects), ...(drawn[id] ?? [])];
}

describe("the build's precompiled validators", () => {
  it('hold a validator for every schema', () => {
    expect([...precompiled.keys()].sort()).toEqual([...schemaIds].sort());
  });

  it.each(schemaIds)('%s: judge every value as ajv compiling the schema at first use does, errors and all', (id) => {
    const atRunTime = ajv.getSchema(schemaUri(id))!;
    const fromBuild = precompiled.get(id)!;
    const values = corpus(id);
    expect(values.length).toBeGreaterThan(10);
    let invalid = 0;
    for (const value of values) {
      const valid = atRunTime(value);
      if (!valid) invalid += 1;
      expect({ valid: fromBuild(value), errors: fromBuild.errors ?? null }, JSON.stringify(value)).toEqual({
        valid,
        errors: atRunTime.errors ?? null,
      });
    }
    // Both answers were seen: the comparison covered the error paths, not only acceptance.
    expect(invalid).toBeGreaterThan(0);
    expect(invalid).toBeLessThan(values.length);
  });

  it('are used only while the schema files, ajv and its options are those they were compiled with', () => {
    expect(built.digest).toBe(schemasDigest());
    expect(precompiledValidators({ ...built, digest: '0'.repeat(64) })).toBeUndefined();
    expect(precompiledValidators(undefined)).toBeUndefined();
  });

  it('a module file that is missing or does not load (cut short) counts as none: the schemas compile at first use', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-validators-'));
    try {
      const file = join(dir, 'schema-validators.cjs');
      expect(precompiledModuleAt(file)).toBeUndefined();
      writeFileSync(file, builtText.slice(0, 1_000));
      expect(precompiledModuleAt(file)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
