// Every error class of the kit carries a stable `code` (SVC_…), set on the class or required by its
// constructor, so a caller branches on the code and never on a message that may be reworded.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIT_ROOT } from './scratch-project.js';

const SKIP = new Set(['node_modules', 'dist', '.git', '.stryker-tmp', 'test', 'examples', 'action']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each `class X extends …Error` of a text, with its body up to the first line that closes a class. */
function errorClasses(text: string): Array<{ name: string; body: string }> {
  return [...text.matchAll(/^export class (\w+) extends \w*Error \{\n([\s\S]*?)^\}/gm)].map((m) => ({ name: m[1]!, body: m[2]! }));
}

const hasCode = (body: string) => /readonly code(: \w+)? = 'SVC_[A-Z_]+'|readonly code: \w+Code\b/.test(body);

describe('error classes', () => {
  const classes = sources(KIT_ROOT).flatMap((file) =>
    errorClasses(readFileSync(file, 'utf8')).map((c) => ({ ...c, file: relative(KIT_ROOT, file) })),
  );

  it('are found in the kit', () => {
    expect(classes.map((c) => c.name)).toEqual(expect.arrayContaining(['CheckFailure', 'ConfigError', 'SignerError', 'OperationError']));
  });

  it('each carry a stable SVC_ code', () => {
    expect(classes.filter((c) => !hasCode(c.body)).map((c) => `${c.file}: ${c.name}`)).toEqual([]);
  });

  it('are told apart from a class without a code', () => {
    const [plain, coded, typed] = errorClasses(
      "export class A extends Error {\n  override readonly name = 'A';\n}\n" +
        "export class B extends Error {\n  readonly code = 'SVC_B';\n}\n" +
        'export class C extends Error {\n  constructor(readonly code: CCode) {}\n}\n',
    );
    expect([hasCode(plain!.body), hasCode(coded!.body), hasCode(typed!.body)]).toEqual([false, true, true]);
  });
});
