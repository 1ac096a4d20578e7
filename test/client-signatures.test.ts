// The signature fixtures diagnose is tested against (signer/fixtures/client-signatures*.json) are
// what real client code writes: each file is regenerated here by its script, in its own runtime
// (python3, node, php, go), and must come out byte for byte as committed. An end-to-end test: it
// starts other languages' runtimes, so it runs with `npm run test:e2e`.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FIXTURES = new URL('../signer/fixtures/', import.meta.url);
const ROOT = new URL('../', import.meta.url).pathname;
const fixtureFiles = readdirSync(FIXTURES)
  .filter((f) => /^client-signatures.*\.json$/.test(f))
  .sort();

/** Each fixture's generator and the runtime it needs; a runtime missing here is a skip, never a pass. */
const GENERATORS: Array<[file: string, command: string, args: string[]]> = [
  ['client-signatures.json', 'python3', ['scripts/make-client-signatures.py', '-']],
  ['client-signatures-node.json', process.execPath, ['scripts/make-client-signatures.mjs', '-']],
  ['client-signatures-php.json', 'php', ['scripts/make-client-signatures.php', '-']],
  ['client-signatures-go.json', 'go', ['run', 'scripts/make-client-signatures.go', '-']],
];
const has = (command: string) => spawnSync(command, command === 'go' ? ['version'] : ['--version'], { stdio: 'ignore' }).status === 0;

describe('the fixtures come from their runtimes', () => {
  it('every fixture file has a generator', () => {
    expect(fixtureFiles).toEqual(GENERATORS.map(([file]) => file).sort());
  });

  for (const [file, command, args] of GENERATORS) {
    // Without the runtime (.ci/run installs php and go) the row is reported skipped, never passed.
    it.skipIf(!has(command))(
      `${file} is what ${command} writes today`,
      () => {
        // go wants a cache and a GOPATH; CI may run without HOME.
        const goHome = join(tmpdir(), 'svc-go');
        const env = { GOCACHE: join(goHome, 'cache'), GOPATH: join(goHome, 'path'), ...process.env };
        const run = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env });
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toBe(readFileSync(new URL(file, FIXTURES), 'utf8'));
      },
      90_000,
    );
  }
});
