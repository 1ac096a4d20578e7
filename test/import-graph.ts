import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Files of the repository and the relative modules each imports (type-only imports too: they are layering). */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.(ts|mts|mjs|js)$/;
const SKIP = new Set(['node_modules', 'dist', '.git', 'svc-reports']);
// import … from '…', export … from '…', import '…', import('…'): the specifier of each.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Reads the import graph of every source file under root (paths relative to root). */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) graph.set(relative(root, path), importsOf(root, path));
    }
  };
  walk(root);
  return graph;
}

function importsOf(root: string, file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const targets = new Set<string>();
  for (const match of text.matchAll(SPECIFIER)) {
    const target = resolveModule(resolve(dirname(file), match[1]!));
    if (target !== undefined) targets.add(relative(root, target));
  }
  return [...targets];
}

/** `./x.js` is the compiled name of `./x.ts`: the source is what imports are read from. */
function resolveModule(path: string): string | undefined {
  const candidates = [path.replace(/\.js$/, '.ts'), path.replace(/\.mjs$/, '.mts'), path, `${path}.ts`, join(path, 'index.ts')];
  return candidates.find((c) => existsSync(c) && SOURCE.test(c));
}

/** Every import cycle: the strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function importCycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

// A static import or re-export of a compiled module (`import … from '…'`, `export … from '…'`,
// `import '…'`), not a dynamic import(): what loading the module loads at once.
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^'"]*?\sfrom\s*)?['"]([^'"]+)['"]/gm;

/**
 * The packages that loading a compiled entry loads at once (its static imports, followed through the
 * entry's own modules), each with the chain of modules that leads to it.
 */
export function packagesLoadedBy(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const visited = new Set<string>();
  const visit = (file: string, chain: string[]): void => {
    if (visited.has(file)) return;
    visited.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const specifier = match[1]!;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier), [...chain, specifier]);
      else if (!specifier.startsWith('node:')) {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, [...chain, specifier]);
      }
    }
  };
  visit(resolve(entry), []);
  return packages;
}
