import { readPackageJson } from '../common/package-root.js';

export type Level = 'MUST' | 'SHOULD' | 'MAY';

export interface Requirement {
  id: string;
  title: string;
  level: Level;
  /** The interface section the requirement belongs to. */
  section: string;
  /** The profile rules it rests on. */
  profile: string[];
  /** Rests on the profile's P-OPS operations rather than the interface. */
  extension: boolean;
}

let cached: Requirement[] | undefined;

/** The requirement catalog (suites/catalog.json): every testable statement, with its level and rules. */
export function catalog(): Requirement[] {
  cached ??= readPackageJson<{ requirements: Requirement[] }>('suites/catalog.json').requirements;
  return cached;
}
