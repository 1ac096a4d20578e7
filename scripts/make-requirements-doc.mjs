// npm run docs: writes docs/requirements.md from the three catalogs and the checks (needs `npm run build`).
import { readFileSync, writeFileSync } from 'node:fs';
import { judgedCatalogs, requirementsMarkdown } from '../dist/suites/requirements-doc.js';
import { SECTIONS } from '../dist/suites/sections.js';

const root = new URL('..', import.meta.url);
const read = (file) => JSON.parse(readFileSync(new URL(file, root), 'utf8'));
const catalog = read('suites/catalog.json');
writeFileSync(
  new URL('docs/requirements.md', root),
  requirementsMarkdown(catalog.requirements, SECTIONS, catalog.description, judgedCatalogs(read)),
);
console.log('wrote docs/requirements.md');
