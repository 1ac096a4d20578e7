// npm run docs: writes docs/requirements.md from suites/catalog.json and the checks (needs `npm run build`).
import { readFileSync, writeFileSync } from 'node:fs';
import { requirementsMarkdown } from '../dist/suites/requirements-doc.js';
import { SECTIONS } from '../dist/suites/sections.js';

const root = new URL('..', import.meta.url);
const catalog = JSON.parse(readFileSync(new URL('suites/catalog.json', root), 'utf8'));
writeFileSync(new URL('docs/requirements.md', root), requirementsMarkdown(catalog.requirements, SECTIONS, catalog.description));
console.log('wrote docs/requirements.md');
