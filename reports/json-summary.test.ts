import { describe, expect, it } from 'vitest';
import { requirementOf, resultOf } from '../core/report-test-support.js';
import { buildReport } from '../core/verdict.js';
import { summaryJson } from './json-summary.js';

const requirement = requirementOf;
const failed = (id: string) => resultOf(id, 'failed');

describe('summaryJson (--format json)', () => {
  // Before: the MAY was an entry of "failed", and no entry said which profile rule decided it.
  it('lists a MAY not held apart from the failures, and names the profile rule that decides a point the interface leaves open', () => {
    const decides = { rule: 'P-OPS-1', decision: 'cancelling a CANCELLED order answers 422' };
    const report = buildReport({
      results: [failed('OPS-CANCEL-AGAIN'), failed('AUTH-REPLAY')],
      catalog: [requirement('OPS-CANCEL-AGAIN', 'MUST', { profileDecides: decides }), requirement('AUTH-REPLAY', 'MAY')],
      target: { baseUrl: 'https://pay.example', environment: 'sandbox', embeddedSandbox: false },
      seed: 1,
      runNumber: 1,
      runs: 1,
      strict: false,
      startedAt: new Date(0),
      durationMs: 1,
      version: 'test',
    });
    const json = JSON.parse(summaryJson(report, []));
    expect(json.failed).toEqual([
      {
        id: 'OPS-CANCEL-AGAIN',
        level: 'MUST',
        title: 'OPS-CANCEL-AGAIN holds',
        message: 'OPS-CANCEL-AGAIN broke',
        profileDecides: decides,
      },
    ]);
    expect(json.mayNotHeld).toEqual([{ id: 'AUTH-REPLAY', level: 'MAY', title: 'AUTH-REPLAY holds', message: 'AUTH-REPLAY broke' }]);
  });
});
