// The public surface is what docs/library.md's "Every export" names, entry by entry, and nothing else.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as root from '../index.js';
import * as vitestEntry from '../suites/vitest.js';
import * as checks from './checks.js';
import * as generators from './generators.js';
import * as harness from './harness.js';
import * as sandbox from './sandbox.js';
import * as signer from './signer.js';

const DOC = readFileSync(new URL('../docs/library.md', import.meta.url), 'utf8');
const SECTION = DOC.slice(DOC.indexOf('## Every export'), DOC.indexOf('## Add your own checks'));

/** The names a bullet of the section lists for an entry: each `CODE` word, the entry's own name aside. */
function documented(entry: string): string[] {
  const bullet = SECTION.split('\n- ').find((b) => b.startsWith(`\`${entry}\`:`));
  if (bullet === undefined) throw new Error(`docs/library.md lists nothing for ${entry}`);
  return [...bullet.matchAll(/`([A-Za-z_][\w]*)`/g)].map((m) => m[1]!);
}

const named = (module: object) => Object.keys(module).sort();

describe('the public surface', () => {
  it.each([
    ['svc-conformance/signer', signer],
    ['svc-conformance/generators', generators],
    ['svc-conformance/sandbox', sandbox],
    ['svc-conformance/harness', harness],
    ['svc-conformance/checks', checks],
    ['svc-conformance/vitest', vitestEntry],
  ] as const)('%s exports exactly what docs/library.md names', (entry, module) => {
    expect(named(module)).toEqual([...new Set(documented(entry))].sort());
  });

  it('the root exports every entry but the vitest one, and what its bullet adds', () => {
    const entries = [signer, generators, sandbox, harness, checks].flatMap(named);
    const added = documented('svc-conformance').filter((name) => name !== 'conformanceSuite');
    expect(named(root)).toEqual([...new Set([...entries, ...added])].sort());
  });
});
