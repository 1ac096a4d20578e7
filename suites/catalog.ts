import type { Requirement } from '../core/report.js';
import { memo } from '../common/memo.js';
import { readPackageJson } from '../common/package-root.js';

const loaded = new Map<string, Requirement[]>();

/** The requirements of a catalog file shipped with the package (its path from the package root), read once. */
export function requirementsIn(file: string): Requirement[] {
  return memo(loaded, file, () => readPackageJson<{ requirements: Requirement[] }>(file).requirements);
}

/** The requirement catalog (suites/catalog.json): every testable statement, with its level and rules. */
export function catalog(): Requirement[] {
  return requirementsIn('suites/catalog.json');
}
