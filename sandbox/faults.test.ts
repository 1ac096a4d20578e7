import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalog } from '../suites/catalog.js';
import { FAULTS, FAULT_NAMES, parseFaults } from './faults.js';

const here = fileURLToPath(new URL('.', import.meta.url));

describe('the fault catalog', () => {
  it('has at least 30 faults, each naming the profile rule it breaks', () => {
    expect(FAULT_NAMES.length).toBeGreaterThanOrEqual(30);
    for (const name of FAULT_NAMES) expect(FAULTS[name].rule, name).toMatch(/^P-[A-Z]+-\d+$/);
  });

  // The proof judges a fault by the requirement it names: a fault whose rule that requirement does not
  // rest on would prove a check against the wrong text of the profile.
  it("names a catalog requirement that rests on the fault's own rule", () => {
    const requirements = new Map(catalog().map((r) => [r.id, r]));
    const mislabelled = FAULT_NAMES.filter((name) => !requirements.get(FAULTS[name].requirement)?.profile.includes(FAULTS[name].rule)).map(
      (name) =>
        `${name}: ${FAULTS[name].rule} → ${FAULTS[name].requirement} (${requirements.get(FAULTS[name].requirement)?.profile.join(', ') ?? 'no such requirement'})`,
    );
    expect(mislabelled).toEqual([]);
  });

  it.each(['README.md', 'docs/sandbox.md'])('is counted rightly where %s counts it', (file) => {
    const text = readFileSync(join(here, '..', file), 'utf8');
    expect(text).toMatch(/`serve --list-faults` lists all \d+ /);
    expect(text).toContain(`\`serve --list-faults\` lists all ${FAULT_NAMES.length} `);
  });

  it('refuses an unknown fault name, pointing at the list', () => {
    expect(() => parseFaults(['dup-race', 'nope'])).toThrow(/unknown fault "nope"; run `svc-conformance serve --list-faults`/);
  });
});
