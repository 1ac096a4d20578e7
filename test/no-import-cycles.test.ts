// Layering: no import cycles anywhere, core/ imports nothing of the kit (everything may import it),
// and the model-based checks' engine (suites/model/) sits below the checks that use it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-graph.js';
import { KIT_ROOT } from './scratch-project.js';

describe('the import graph', () => {
  const graph = importGraph(KIT_ROOT);

  it('reads the whole kit', () => {
    expect(graph.get('cli/commands/run.ts')).toContain('suites/run.ts');
    expect(graph.get('suites/http.ts')).toContain('core/exchange.ts'); // `import type` counts
    expect(graph.size).toBeGreaterThan(150);
  });

  it('has no cycle', () => {
    expect(importCycles(graph).map((cycle) => cycle.join(' <-> '))).toEqual([]);
  });

  it('core/ imports nothing of the kit but core/', () => {
    const leaks = [...graph]
      .filter(([file]) => file.startsWith('core/'))
      .flatMap(([file, targets]) => targets.filter((t) => !t.startsWith('core/')).map((t) => `${file} -> ${t}`));
    expect(leaks).toEqual([]);
  });

  it('suites/model/ imports nothing of suites/checks/: the checks use the model, not the other way', () => {
    const upward = [...graph]
      .filter(([file]) => file.startsWith('suites/model/') && !/(\.test|-test-support)\.ts$/.test(file))
      .flatMap(([file, targets]) => targets.filter((t) => t.startsWith('suites/checks/')).map((t) => `${file} -> ${t}`));
    expect(upward).toEqual([]);
  });

  it('finds a cycle when there is one (the detector can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cycle-'));
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'one.ts'), "import { two } from './two.js';\nexport const one = two;\n");
    writeFileSync(join(dir, 'a', 'two.ts'), "import type { Three } from '../three.js';\nexport const two = 2 as unknown as Three;\n");
    writeFileSync(join(dir, 'three.ts'), "export { one } from './a/one.js';\nexport type Three = number;\n");
    writeFileSync(join(dir, 'apart.ts'), "export const apart = await import('./three.js');\n");
    expect(importCycles(importGraph(dir))).toEqual([['a/one.ts', 'a/two.ts', 'three.ts']]);
  });
});
