// The report folder's forms as reporters (report.json and its signature, junit.xml, report.html), and
// the report sealed for them: the key that signs it recorded first, so the digest covers it.
import { endRun, type Reporter } from '../core/reporter.js';
import type { Report } from '../core/report.js';
import { renderHtml } from './html.js';
import { JsonReportReporter } from './json-report.js';
import { renderJUnit } from './junit.js';
import { seal } from './seal.js';
import type { ReportSigner } from './signature.js';
import { ReportFolder } from './write.js';

/** The reporters of the report folder `dir`, in the order their files are listed. */
export function reportFolder(dir: string, signer: ReportSigner | undefined, onFailure: (error: unknown) => void): Reporter[] {
  const folder = new ReportFolder(dir, onFailure);
  return [
    new JsonReportReporter(folder, signer),
    fileReporter(folder, 'junit.xml', renderJUnit),
    fileReporter(folder, 'report.html', renderHtml),
  ];
}

/** A reporter that writes `render`'s text of the report to the folder as `name`. */
function fileReporter(folder: ReportFolder, name: string, render: (report: Report) => string): Reporter {
  return { onRunEnd: (end) => folder.write(end, name, render(end.report)) };
}

/** The report as every form shows it: naming the key that signs it (when one does), then sealed with its digest. */
export function sealedFor(report: Report, signer: ReportSigner | undefined): Report {
  if (signer === undefined) return seal(report);
  if (report.certification === undefined) throw new Error('a signed report needs its certification block to name the key');
  return seal({ ...report, certification: { ...report.certification, signedBy: signer.signedBy } });
}

/** Writes the report folder of a report outside a run; returns the files' paths, or throws what stopped them. */
export function writeReports(report: Report, dir: string, signer?: ReportSigner): Promise<string[]> {
  return endRun(
    reportFolder(dir, signer, (error) => {
      throw error;
    }),
    sealedFor(report, signer),
  );
}
