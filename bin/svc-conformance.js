#!/usr/bin/env node
// Thin launcher: the command is compiled to dist/ by `npm ci` (the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/pkg/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('svc-conformance: the command is not built yet; run `npm run build` (npm ci does it for you)\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
