#!/usr/bin/env node
// Thin launcher: the command is compiled to dist/ by `npm ci` (the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/pkg/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('svc-conformance: the command is not built yet; run `npm run build` (npm ci does it for you)\n');
  process.exit(2);
}
// While the command loads, a signal ends it as it would a command holding nothing (exitStatusOf and
// interruptedLine in cli/interrupt.ts), and after its ending with the status it gave: never by Node's
// own death by the signal. Once the command listens, its listener does the rest.
for (const [signal, status] of [
  ['SIGINT', 130],
  ['SIGTERM', 130],
  ['SIGHUP', 129],
]) {
  process.on(signal, () => {
    if (process.listenerCount(signal) > 1) return;
    if (process.exitCode === undefined) {
      const command = /^[a-z-]+$/.test(process.argv[2] ?? '') ? ` ${process.argv[2]}` : '';
      process.stderr.write(`svc-conformance${command}: interrupted (${signal}): nothing was held, nothing to clean up\n`);
    }
    process.exit(process.exitCode ?? status);
  });
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
