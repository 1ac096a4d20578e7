// The kit's JSON Schemas (draft 2020-12), validated with ajv in strict mode. Validation failures are
// returned as data (ajv's error objects, copied), never thrown: a check decides what a failure means.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Ajv2020Module from 'ajv/dist/2020.js';
import type { CodeOptions, ErrorObject, Format, ValidateFunction } from 'ajv/dist/2020.js';
import { addFormats, ajv2020, carriedValidators, fullFormats, validatorPackageVersion } from '../common/deferred.js';
import { memo } from '../common/memo.js';
import { packageRoot } from '../common/package-root.js';
import { SVC_DATE_FORMAT, SVC_DATETIME_FORMAT, isSvcDate, isSvcDateTime } from './formats.js';
import type { SchemaTypes } from './types.js';

const requireModule = createRequire(import.meta.url);
type Ajv = InstanceType<typeof Ajv2020Module.default>;

const SCHEMA_IDS = [
  'order-create-request',
  'create-order-envelope',
  'order-record',
  'success-envelope',
  'error-envelope',
  'payout-status-error-envelope',
  'payout-status-request',
  'payout-record',
  'payout-status-envelope',
  'order-lookup-request',
  'order-status-record',
  'balance-inquiry-request',
  'balance-record',
  'transaction-initiation-request',
  'webhook-event',
  'config',
  'report',
] as const;

/** Name of one schema: `schemas/<id>.schema.json`, `$id` `https://svc-conformance.dev/schemas/<id>.schema.json`. */
export type SchemaId = (typeof SCHEMA_IDS)[number];

export type { SchemaTypes };

/** Every schema id, in a stable order. */
export const schemaIds: readonly SchemaId[] = SCHEMA_IDS;

/** One validation failure, as ajv reports it. */
export interface SchemaError {
  /** The schema keyword that failed (`required`, `format`, `enum`, `const`, …). */
  keyword: string;
  /** JSON Pointer to the failing part of the value; `""` for the value itself. */
  instancePath: string;
  /** JSON Pointer (as a URI fragment) to the failing keyword in the schema. */
  schemaPath: string;
  /** Keyword-specific detail, e.g. `{ missingProperty }`, `{ allowedValues }`, `{ additionalProperty }`. */
  params: Record<string, unknown>;
  message: string;
}

export type ValidationResult = { valid: true; errors: [] } | { valid: false; errors: SchemaError[] };

/** The `$id` of a schema. */
export function schemaUri(id: SchemaId): string {
  return `https://svc-conformance.dev/schemas/${id}.schema.json`;
}

function schemaPath(id: SchemaId): string {
  return `schemas/${id}.schema.json`;
}

function assertSchemaId(id: unknown): asserts id is SchemaId {
  if (!(SCHEMA_IDS as readonly unknown[]).includes(id)) {
    throw new TypeError(`schemas: unknown schema id ${JSON.stringify(id)}; known ids: ${SCHEMA_IDS.join(', ')}`);
  }
}

const rawSchemas = new Map<SchemaId, { text: string; schema: Record<string, unknown> }>();

function rawFile(id: SchemaId): { text: string; schema: Record<string, unknown> } {
  return memo(rawSchemas, id, () => {
    const text = readFileSync(join(packageRoot(), schemaPath(id)), 'utf8');
    const schema = JSON.parse(text) as Record<string, unknown>;
    if (schema.$id !== schemaUri(id)) {
      throw new Error(`schemas: ${schemaPath(id)} has $id ${JSON.stringify(schema.$id)}; expected "${schemaUri(id)}"`);
    }
    return { text, schema };
  });
}

/** ajv's options for the kit's validators, at first use and in the build's precompiled code alike. */
const AJV_OPTIONS = { strict: true, allErrors: true } as const;

/** The shape of the build's module (standalone.ts): a change to it is a change of the digest. */
const PRECOMPILED_FORMAT = 1;

/** A digest of what validators are made from (schema files, ajv versions, options, formats): precompiled
 *  validators are used only when made from exactly these, else each schema compiles at first use. */
export function schemasDigest(): string {
  const hash = createHash('sha256');
  const versions = [validatorPackageVersion('ajv'), validatorPackageVersion('ajv-formats')];
  hash.update(JSON.stringify([PRECOMPILED_FORMAT, AJV_OPTIONS, Object.keys(SVC_FORMATS), ...versions]));
  for (const id of SCHEMA_IDS) hash.update('\u0000').update(rawFile(id).text);
  return hash.digest('hex');
}

/** The raw schema object of `id` (a copy: changing it changes nothing here). */
export function loadSchema(id: SchemaId): Record<string, unknown> {
  assertSchemaId(id);
  return structuredClone(rawFile(id).schema);
}

/** A fresh ajv configured like this module's (draft 2020-12, strict, all errors, every format), with no schema. */
export function createSchemaAjv(): Ajv {
  return schemaAjv({ checkAgainstMetaSchema: true });
}

/** The formats the schemas name beyond ajv-formats' own: the interface's two date shapes. */
const SVC_FORMATS: Record<string, Format> = {
  [SVC_DATETIME_FORMAT]: { type: 'string', validate: isSvcDateTime },
  [SVC_DATE_FORMAT]: { type: 'string', validate: isSvcDate },
};

function schemaAjv({ checkAgainstMetaSchema, code }: { checkAgainstMetaSchema: boolean; code?: CodeOptions }): Ajv {
  const ajv = new (ajv2020())({ ...AJV_OPTIONS, validateSchema: checkAgainstMetaSchema, ...(code ? { code } : {}) });
  addFormats()(ajv);
  for (const [name, format] of Object.entries(SVC_FORMATS)) ajv.addFormat(name, format);
  return ajv;
}

/** An ajv with every schema registered so `$ref`s resolve, each compiled at first use. Not checked against
 *  the meta-schema here (schemas.test.ts does, once); `code` is for standalone.ts. */
export function ajvWithAllSchemas(code?: CodeOptions): Ajv {
  const ajv = schemaAjv({ checkAgainstMetaSchema: false, ...(code ? { code } : {}) });
  for (const id of SCHEMA_IDS) ajv.addSchema(rawFile(id).schema);
  return ajv;
}

/** Where the build writes the validators it compiled (standalone.ts), relative to the package root. */
export const PRECOMPILED_VALIDATORS = 'dist/pkg/schema-validators.cjs';

/** What a precompiled validators module exports. */
export interface PrecompiledModule {
  /** schemasDigest() of the files it was compiled from. */
  digest: string;
  /** The validator of each schema id, given the format functions the schemas name. */
  validators(formats: Record<string, Format>): Record<string, ValidateFunction>;
}

/** The precompiled validators, if the module was compiled from the schema files as they are now. */
export function precompiledValidators(module: PrecompiledModule | undefined): Map<SchemaId, ValidateFunction> | undefined {
  if (module === undefined || module.digest !== schemasDigest()) return undefined;
  const formats = { ...fullFormats(), ...SVC_FORMATS };
  const compiled = module.validators(formats);
  return new Map(SCHEMA_IDS.flatMap((id) => (compiled[id] === undefined ? [] : [[id, compiled[id]] as const])));
}

/** The build's module at `file`, if there is one that loads: one that does not (damaged) is as good as none. */
export function precompiledModuleAt(file = join(packageRoot(), PRECOMPILED_VALIDATORS)): PrecompiledModule | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return requireModule(file) as PrecompiledModule;
  } catch {
    return undefined;
  }
}

let sharedAjv: Ajv | undefined;
let validators: Map<SchemaId, ValidateFunction> | undefined;

function compiled(id: SchemaId): ValidateFunction {
  const validate = (sharedAjv ??= ajvWithAllSchemas()).getSchema(schemaUri(id));
  if (validate === undefined) throw new Error(`schemas: ${schemaPath(id)} is not registered with ajv`);
  return validate;
}

function validatorFor(id: SchemaId): ValidateFunction {
  validators ??= precompiledValidators((carriedValidators() as PrecompiledModule | undefined) ?? precompiledModuleAt()) ?? new Map();
  return memo(validators, id, () => compiled(id));
}

/** Compiles `id` (and what it references) with ajv now, precompiled or not. Throws when the schema breaks
 *  a strict-mode rule: a defect of the kit, not of the value under test. */
export function compileSchema(id: SchemaId): void {
  assertSchemaId(id);
  compiled(id);
}

function toSchemaError(error: ErrorObject): SchemaError {
  // A `false` subschema (e.g. `data` on an error envelope) only says "boolean schema is false".
  const message = error.keyword === 'false schema' ? 'must NOT be present' : (error.message ?? `must pass "${error.keyword}"`);
  return {
    keyword: error.keyword,
    instancePath: error.instancePath,
    schemaPath: error.schemaPath,
    params: { ...(error.params as Record<string, unknown>) },
    message,
  };
}

/** Validates `value` against schema `id`. Failures come back as data; only an unknown id throws. */
export function validateSchema(id: SchemaId, value: unknown): ValidationResult {
  assertSchemaId(id);
  const validate = validatorFor(id);
  if (validate(value)) return { valid: true, errors: [] };
  return { valid: false, errors: (validate.errors ?? []).map(toSchemaError) };
}

/** True when `value` satisfies schema `id`, and TypeScript then knows it as that schema's type
 *  (SchemaTypes[id]), with no cast. validateSchema says why a value does not. */
export function isValid<Id extends SchemaId>(id: Id, value: unknown): value is SchemaTypes[Id] {
  return validateSchema(id, value).valid;
}

function detail(error: SchemaError): string {
  const { additionalProperty, allowedValue, allowedValues } = error.params;
  if (error.keyword === 'additionalProperties' && typeof additionalProperty === 'string') {
    return ` (${JSON.stringify(additionalProperty)})`;
  }
  if (error.keyword === 'const') return `: ${JSON.stringify(allowedValue)}`;
  if (error.keyword === 'enum' && Array.isArray(allowedValues) && allowedValues.length <= 8) {
    return `: ${allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return '';
}

/** One readable line per error, e.g. `/customer/email: must match format "email"`. */
export function describeErrors(errors: SchemaError[]): string {
  return errors.map((error) => `${error.instancePath === '' ? '(root)' : error.instancePath}: ${error.message}${detail(error)}`).join('\n');
}
