import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { packageRoot, readPackageJson } from '../common/package-root.js';
import {
  compileSchema,
  createSchemaAjv,
  describeErrors,
  isValid,
  loadSchema,
  schemaIds,
  schemaUri,
  validateSchema,
  type SchemaError,
  type SchemaId,
  type SchemaTypes,
} from './index.js';
import { CURRENCIES, ORDER_STATES, PAYOUT_STATES, TRANSFER_MODES, type PayoutRecord, type TargetConfig } from './types.js';

/** One case of `schemas/examples/<id>.json`. `error`, on an invalid case, names the defect it plants. */
interface ExampleCase {
  description: string;
  data: unknown;
  valid: boolean;
  error?: { instancePath: string; keyword: string };
}

function examplesOf(id: SchemaId): ExampleCase[] {
  return readPackageJson<ExampleCase[]>(`schemas/examples/${id}.json`);
}

function at(value: unknown, ...path: string[]): unknown {
  let node = value;
  for (const key of path) node = (node as Record<string, unknown>)[key];
  return node;
}

describe('schema files', () => {
  it.each(schemaIds)('%s is valid against the draft 2020-12 meta-schema', (id) => {
    // The validators the kit runs skip this check (schemas/index.ts): it is made here, once.
    const ajv = createSchemaAjv();
    expect(ajv.validateSchema(loadSchema(id)), JSON.stringify(ajv.errors)).toBe(true);
  });

  it.each(schemaIds)('%s compiles in strict mode', (id) => {
    expect(() => compileSchema(id)).not.toThrow();
  });

  it.each(schemaIds)('%s declares draft 2020-12, its own $id, a title and a description', (id) => {
    const schema = loadSchema(id);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(schemaUri(id));
    expect(typeof schema.title).toBe('string');
    expect(typeof schema.description).toBe('string');
  });

  it('every *.schema.json in schemas/ has an id, and every id has a file', () => {
    const files = readdirSync(join(packageRoot(), 'schemas')).filter((name) => name.endsWith('.schema.json'));
    expect(files.map((name) => name.replace(/\.schema\.json$/, '')).sort()).toEqual([...schemaIds].sort());
  });

  it('loadSchema hands out a copy', () => {
    const first = loadSchema('order-record');
    first.title = 'changed';
    expect(loadSchema('order-record').title).not.toBe('changed');
  });
});

describe('ajv setup is strict', () => {
  // These guard the option set: a schema mistake must fail compilation, not pass silently.
  it.each([
    ['an unknown keyword', { type: 'object', propertys: {} }],
    ['an unknown format', { type: 'string', format: 'svc-dat' }],
    ['a union type', { type: ['string', 'number'] }],
    ['required without type object', { required: ['a'] }],
    ['required of an undeclared property', { type: 'object', properties: { a: {} }, required: ['b'] }],
  ])('refuses %s', (_label, schema) => {
    expect(() => createSchemaAjv().compile(schema)).toThrow();
  });
});

describe('enumerations: the schemas agree with each other and with types.ts', () => {
  const currencyPaths: [SchemaId, string[]][] = [
    ['order-create-request', ['properties', 'order_currency', 'enum']],
    ['order-status-record', ['properties', 'order_currency', 'enum']],
    ['payout-record', ['properties', 'currency', 'enum']],
    ['balance-record', ['properties', 'currency', 'enum']],
    ['transaction-initiation-request', ['properties', 'currency', 'enum']],
  ];
  it.each(currencyPaths)('%s lists the 34 currencies', (id, path) => {
    expect(at(loadSchema(id), ...path)).toEqual([...CURRENCIES]);
  });

  it('transfer modes, payout states and order states', () => {
    expect(at(loadSchema('transaction-initiation-request'), 'properties', 'transfer_mode', 'enum')).toEqual([...TRANSFER_MODES]);
    expect(at(loadSchema('payout-record'), 'properties', 'status', 'enum')).toEqual([...PAYOUT_STATES]);
    expect(at(loadSchema('order-record'), 'properties', 'order_status', 'enum')).toEqual([...ORDER_STATES]);
    expect(CURRENCIES).toHaveLength(34);
  });
});

describe('examples', () => {
  it('every example file belongs to a schema id', () => {
    const files = readdirSync(join(packageRoot(), 'schemas', 'examples')).filter((name) => name.endsWith('.json'));
    expect(files.map((name) => name.replace(/\.json$/, '')).sort()).toEqual([...schemaIds].sort());
  });

  describe.each(schemaIds)('%s', (id) => {
    const cases = examplesOf(id);

    it('has at least one valid and one invalid case, each well-formed', () => {
      expect(cases.some((c) => c.valid)).toBe(true);
      expect(cases.some((c) => !c.valid)).toBe(true);
      for (const c of cases) {
        expect(typeof c.description, JSON.stringify(c)).toBe('string');
        expect(typeof c.valid, c.description).toBe('boolean');
        expect(c, c.description).toHaveProperty('data');
      }
      const descriptions = cases.map((c) => c.description);
      expect(new Set(descriptions).size, 'descriptions are unique').toBe(descriptions.length);
    });

    it.each(cases.map((c) => [c.description, c] as const))('%s', (_description, example) => {
      const result = validateSchema(id, example.data);
      const report = `${id} / ${example.description}\n${describeErrors(result.errors)}`;
      expect(result.valid, report).toBe(example.valid);
      if (result.valid) {
        expect(result.errors).toEqual([]);
        return;
      }
      expect(result.errors.length, report).toBeGreaterThan(0);
      if (example.error !== undefined) {
        const planted = example.error;
        const hit = result.errors.some((e: SchemaError) => e.instancePath === planted.instancePath && e.keyword === planted.keyword);
        expect(hit, `${report}\nexpected an error ${JSON.stringify(planted)}`).toBe(true);
      }
    });

    it('every invalid case names the defect it plants', () => {
      for (const c of cases.filter((c) => !c.valid)) expect(c.error, c.description).toBeDefined();
    });
  });
});

describe('validateSchema and describeErrors', () => {
  it('returns errors as data with ajv fields', () => {
    const result = validateSchema('balance-inquiry-request', { svc_wallet_id: 5 });
    expect(result).toEqual({
      valid: false,
      errors: [
        {
          keyword: 'type',
          instancePath: '/svc_wallet_id',
          schemaPath: '#/properties/svc_wallet_id/type',
          params: { type: 'string' },
          message: 'must be string',
        },
      ],
    });
  });

  it('collects every error, not only the first', () => {
    const result = validateSchema('balance-record', { balance: 1, currency: 'BTC' });
    expect(result.errors.map((e) => e.keyword).sort()).toEqual(['enum', 'required', 'type']);
  });

  it('describes one error per line, naming the path', () => {
    const result = validateSchema('order-create-request', {
      order_id: 'o1',
      order_amount: 1,
      order_currency: 'INR',
      service_type: 's',
      customer: { name: 'n', email: 42, phone: 'p', address: { line1: 'l', city: 'c', state: 's', country: 'c', postal_code: 'p' } },
      return_url: 'https://merchant.example.com/r',
    });
    expect(describeErrors(result.errors)).toBe('/customer/email: must be string');
  });

  it('names the unknown key, the expected constant and a refused data field', () => {
    const config = validateSchema('config', {
      baseUrl: 'https://sandbox.example.test',
      environment: 'sandbox',
      merchant: { apiKey: 'a', secretKey: 's', walletId: 'w' },
      profle: {},
    });
    expect(describeErrors(config.errors)).toBe('(root): must NOT have additional properties ("profle")');
    const envelope = validateSchema('payout-status-error-envelope', { status: true, code: 404, message: 'x', data: {} });
    expect(describeErrors(envelope.errors).split('\n')).toEqual([
      '/status: must be equal to constant: false',
      '/data: must NOT be present',
    ]);
  });

  it('refuses an unknown schema id', () => {
    expect(() => validateSchema('order' as SchemaId, {})).toThrow(/unknown schema id "order"/);
  });

  it('describes no errors as the empty string', () => {
    expect(describeErrors([])).toBe('');
  });
});

describe('isValid: a type guard over SchemaTypes', () => {
  it('has a type for every schema id and an id for every type (checked by tsc)', () => {
    expectTypeOf<keyof SchemaTypes>().toEqualTypeOf<SchemaId>();
  });

  it("narrows a valid value to its schema's type", () => {
    const record: unknown = examplesOf('payout-record').find((example) => example.valid)?.data;
    if (!isValid('payout-record', record)) throw new Error('the first valid payout-record example is not valid');
    expectTypeOf(record).toEqualTypeOf<PayoutRecord>();
    expect(PAYOUT_STATES).toContain(record.status);
    const config: unknown = {
      baseUrl: 'http://127.0.0.1:1',
      environment: 'sandbox',
      merchant: { apiKey: 'k', secretKey: 's', walletId: 'w' },
    };
    if (!isValid('config', config)) throw new Error('a minimal config is not valid');
    expectTypeOf(config).toEqualTypeOf<TargetConfig>();
  });

  it.each(schemaIds)('%s: agrees with validateSchema on every example', (id) => {
    for (const example of examplesOf(id)) expect(isValid(id, example.data), example.description).toBe(example.valid);
  });
});
