import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FAULTS, FAULT_NAMES, parseFaults } from './faults.js';

const here = fileURLToPath(new URL('.', import.meta.url));

function testSources(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) =>
      entry.isDirectory()
        ? testSources(join(dir, entry.name))
        : entry.name.endsWith('.test.ts') && entry.name !== 'faults.test.ts'
          ? readFileSync(join(dir, entry.name), 'utf8')
          : '',
    )
    .join('\n');
}

describe('the fault catalog', () => {
  it('has at least 30 faults, each naming the profile rule it breaks', () => {
    expect(FAULT_NAMES.length).toBeGreaterThanOrEqual(30);
    for (const name of FAULT_NAMES) expect(FAULTS[name].rule, name).toMatch(/^P-[A-Z]+-\d+$/);
  });

  it("has a behaviour test for every fault in the sandbox's own tests", () => {
    const sources = testSources(here);
    const untested = FAULT_NAMES.filter((name) => !sources.includes(`'${name}'`));
    expect(untested, 'faults never switched on in a sandbox test').toEqual([]);
  });

  it('is counted rightly where the README counts it', () => {
    const readme = readFileSync(join(here, '..', 'README.md'), 'utf8');
    expect(readme).toMatch(/`serve --list-faults` lists all \d+ /);
    expect(readme).toContain(`\`serve --list-faults\` lists all ${FAULT_NAMES.length} `);
  });

  it('refuses an unknown fault name, pointing at the list', () => {
    expect(() => parseFaults(['dup-race', 'nope'])).toThrow(/unknown fault "nope"; run `svc-conformance serve --list-faults`/);
  });
});
