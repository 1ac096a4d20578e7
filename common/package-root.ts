import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The folder of this package's package.json, so dist/ and the sources find the data files alike. */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === 'svc-conformance') return (cached = dir);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('svc-conformance: cannot find its own package.json above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** Reads a JSON data file shipped with the package, by its path relative to the package root. */
export function readPackageJson<T = unknown>(relativePath: string): T {
  return JSON.parse(readFileSync(join(packageRoot(), relativePath), 'utf8')) as T;
}
