// Constraint checks shared by the generators. A bad constraint is refused when the arbitrary is
// built (not when it is sampled), with a message that starts with the public API's name.
import { CURRENCIES, TRANSFER_MODES, type Currency, type TransferMode } from '../../schemas/types.js';

/** Thrown when a generator is built with constraints it cannot honour. */
export class GeneratorConstraintError extends Error {
  override readonly name = 'GeneratorConstraintError';
  readonly code = 'SVC_GENERATOR_CONSTRAINT';
  /** The problem without the API prefix, so a wrapping API can re-state it under its own name. */
  readonly problem: string;
  constructor(api: string, problem: string) {
    super(`${api}: ${problem}`);
    this.problem = problem;
  }
}

/** Runs `build`, its constraint errors re-labelled with `api`, so a composite reports under its own name. */
export function underApiName<T>(api: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof GeneratorConstraintError) throw new GeneratorConstraintError(api, error.problem);
    throw error;
  }
}

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** `value` as a non-empty list of `entries`, each passed to `check` (which throws for a bad one). */
export function checkList<T>(api: string, name: string, value: unknown, entries: string, check: (entry: unknown) => void): readonly T[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new GeneratorConstraintError(api, `${name} must be a non-empty list of ${entries}`);
  for (const entry of value) check(entry);
  return value as readonly T[];
}

/** A non-empty list of entries of one of the interface's tables (its currency table, or its transfer mode table). */
function checkTableEntries<T>(api: string, name: string, value: readonly unknown[], table: readonly T[], tableName: string) {
  return checkList<T>(api, name, value, tableName === 'currency' ? 'currency codes' : 'transfer modes', (entry) => {
    if (!(table as readonly unknown[]).includes(entry))
      throw new GeneratorConstraintError(api, `${name} contains ${show(entry)}, which is not in the interface's ${tableName} table`);
  });
}

export function checkCurrencies(api: string, name: string, value: readonly unknown[] | undefined): readonly Currency[] | undefined {
  return value === undefined ? undefined : checkTableEntries(api, name, value, CURRENCIES, 'currency');
}

export function checkTransferModes(api: string, name: string, value: readonly unknown[] | undefined): readonly TransferMode[] {
  return value === undefined ? TRANSFER_MODES : checkTableEntries(api, name, value, TRANSFER_MODES, 'transfer mode');
}

export function checkNonEmptyString(api: string, name: string, value: unknown, fallback: string): string;
export function checkNonEmptyString(api: string, name: string, value: unknown): string | undefined;
export function checkNonEmptyString(api: string, name: string, value: unknown, fallback?: string): string | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value.length === 0) {
    throw new GeneratorConstraintError(api, `${name} must be a non-empty string (got ${show(value)})`);
  }
  return value;
}

export function checkNonEmptyStrings(api: string, name: string, value: readonly unknown[] | undefined): readonly string[] | undefined {
  if (value === undefined) return undefined;
  return checkList(api, name, value, 'non-empty strings', (item) => checkNonEmptyString(api, `every entry of ${name}`, item));
}

/** Largest accepted maxAmount: amounts are drawn in minor units, which must stay exact doubles. */
const MAX_AMOUNT_LIMIT = 1e12;

export function checkMaxAmount(api: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 1 || value > MAX_AMOUNT_LIMIT) {
    throw new GeneratorConstraintError(
      api,
      `maxAmount must be a finite number greater than 1 and at most ${MAX_AMOUNT_LIMIT} (got ${show(value)})`,
    );
  }
  return value;
}

/** Identifier prefixes are kept to ASCII letters, digits, `-` and `_` so the ids stay unicode-free. */
export function checkIdPrefix(api: string, name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(value)) {
    throw new GeneratorConstraintError(api, `${name} must be 1 to 32 ASCII letters, digits, '-' or '_' (got ${show(value)})`);
  }
  return value;
}

export function checkOneOf<T extends string>(api: string, name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw new GeneratorConstraintError(api, `${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')} (got ${show(value)})`);
  }
  return value as T;
}
