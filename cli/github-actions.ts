import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Report } from '../core/report.js';
import { githubAnnotations, githubJobSummary } from '../reports/github.js';
import type { Io } from './io.js';

/**
 * Inside a GitHub Actions job (GITHUB_ACTIONS=true), the report's GitHub forms: the job summary is
 * appended to the file GITHUB_STEP_SUMMARY names, and the annotations go to the console Io as
 * workflow commands. With --format json that Io writes to stderr, which the runner reads for
 * workflow commands as it reads stdout, so stdout stays one JSON object. Outside Actions: nothing.
 * A summary that cannot be written is said on stderr; it never changes the verdict or the exit status.
 */
export function publishToGitHubActions(io: Io, command: string, report: Report): void {
  if (io.env.GITHUB_ACTIONS !== 'true') return;
  const summaryFile = io.env.GITHUB_STEP_SUMMARY;
  if (summaryFile !== undefined && summaryFile !== '') {
    try {
      appendFileSync(resolve(io.cwd, summaryFile), githubJobSummary(report, command));
    } catch (error) {
      io.stderr(
        `svc-conformance ${command}: could not append the job summary to GITHUB_STEP_SUMMARY: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`,
      );
    }
  }
  for (const line of githubAnnotations(report)) io.stdout(line + '\n');
}
