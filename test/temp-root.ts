// vitest's global setup: the tests' temporary folders (thousands of mkdtemp calls a run) go under one root
// of their own, removed when the run ends. os.tmpdir() and the processes tests start both follow TMPDIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'svc-tests-'));
  process.env.TMPDIR = root;
  // A process a test started may still be writing as the run ends: removal tries again briefly.
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 5 });
}
