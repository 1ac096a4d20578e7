// What `run` says about itself reads right for one: "1 case per property", not "1 cases".
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-harness.js';

describe('run says its counts in the singular for one', () => {
  it('--runs 1 is "1 case per property" in the first line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-wording-'));
    const result = await runCli(['run', '--only', 'AUTH-MISSING-KEY', '--runs', '1', '--seed', '3', '--report-dir', join(dir, 'r')], {
      cwd: dir,
      env: {},
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^svc-conformance run: http:\/\/127\.0\.0\.1:\d+ \(sandbox\), seed 3, 1 case per property, /m);
  });
});
