import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalog } from './catalog.js';
import { judgedCatalogs, requirementsMarkdown } from './requirements-doc.js';
import { SECTIONS } from './sections.js';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

describe('docs/requirements.md', () => {
  it('is what suites/catalog.json and the checks generate (run `npm run docs` after changing either)', () => {
    const description = (JSON.parse(read('suites/catalog.json')) as { description: string }).description;
    expect(
      read('docs/requirements.md') ===
        requirementsMarkdown(
          catalog(),
          SECTIONS,
          description,
          judgedCatalogs((file) => JSON.parse(read(file))),
        ),
      'docs/requirements.md is stale: run `npm run docs` and commit it',
    ).toBe(true);
  });

  it('links only to rules and sections the other docs define', () => {
    const text = read('docs/requirements.md');
    const anchorsIn = (file: string) => new Set([...read(file).matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));
    const profile = anchorsIn('docs/profile.md');
    const iface = anchorsIn('docs/interface.md');
    const missing = [...text.matchAll(/\]\((profile|interface)\.md#([^)]+)\)/g)]
      .filter(([, file, anchor]) => !(file === 'profile' ? profile : iface).has(anchor))
      .map(([, file, anchor]) => `${file}.md#${anchor}`);
    expect([...new Set(missing)]).toEqual([]);
  });

  it("states every requirement a report links to: the server's, the client's and the receiver's", () => {
    const anchors = new Set([...read('docs/requirements.md').matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));
    const ids = ['suites/catalog.json', 'clients/catalog.json', 'clients/receiver-catalog.json'].flatMap((file) =>
      (JSON.parse(read(file)) as { requirements: Array<{ id: string }> }).requirements.map((r) => r.id),
    );
    expect(ids.filter((id) => !anchors.has(id))).toEqual([]);
  });

  it('docs/profile.md anchors every rule id it names, so every link to a rule lands', () => {
    const text = read('docs/profile.md');
    const anchors = new Set([...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));
    const named = new Set([...text.matchAll(/\b(P-[A-Z]+-\d+)\b/g)].map((m) => m[1]!));
    expect([...named].filter((rule) => !anchors.has(rule))).toEqual([]);
  });

  it('docs/profile.md states every rule that a server or client requirement cites', () => {
    const anchors = new Set([...read('docs/profile.md').matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));
    const cited = ['suites/catalog.json', 'clients/catalog.json', 'clients/receiver-catalog.json'].flatMap((file) =>
      (JSON.parse(read(file)) as { requirements: Array<{ profile: string[] }> }).requirements.flatMap((r) => r.profile),
    );
    expect([...new Set(cited)].filter((rule) => !anchors.has(rule))).toEqual([]);
  });
});
