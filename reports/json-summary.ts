// --format json: the summary as one JSON object on stdout, everything else on stderr.
import type { Report } from '../core/report.js';
import { isFailure, isMayNotHeld, verdictText } from '../core/verdict.js';
import { firstMessage, hasSeed } from './console.js';
import { digestOf } from './seal.js';

/** The summary as one JSON object; a MAY not held is listed apart, never as a failure. */
export function summaryJson(report: Report, files: readonly string[]): string {
  const entry = (r: Report['requirements'][number]) => ({
    id: r.id,
    level: r.level,
    title: r.title,
    message: firstMessage(r),
    ...(r.profileDecides !== undefined ? { profileDecides: r.profileDecides } : {}),
  });
  const failed = report.requirements.filter(isFailure).map(entry);
  const mayNotHeld = report.requirements.filter(isMayNotHeld).map(entry);
  return (
    JSON.stringify({
      tool: report.tool,
      verdict: report.verdict,
      verdictText: verdictText(report),
      ...(report.reasons !== undefined ? { reasons: report.reasons } : {}),
      coverage: report.coverage,
      target: report.target,
      ...(report.client ? { client: report.client } : {}),
      ...(report.receiver ? { receiver: report.receiver } : {}),
      ...(hasSeed(report) ? { seed: report.seed } : {}),
      summary: report.summary,
      ...(report.notes !== undefined ? { notes: report.notes } : {}),
      failed,
      ...(mayNotHeld.length > 0 ? { mayNotHeld } : {}),
      reports: files,
      digest: digestOf(report),
    }) + '\n'
  );
}
