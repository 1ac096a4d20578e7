import type { Requirement } from '../core/report.js';
import { readPackageJson } from '../common/package-root.js';

let cached: Requirement[] | undefined;

/** The requirement catalog (suites/catalog.json): every testable statement, with its level and rules. */
export function catalog(): Requirement[] {
  cached ??= readPackageJson<{ requirements: Requirement[] }>('suites/catalog.json').requirements;
  return cached;
}
