// The report folder's forms as reporters (report.json and its signature, junit.xml, report.html), and
// the report sealed for them: the key that signs it recorded first, so the digest covers it.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { endRun, type Reporter } from '../core/reporter.js';
import type { Report } from '../core/report.js';
import { renderHtml } from './html.js';
import { renderJUnit } from './junit.js';
import { reportText, seal } from './seal.js';
import { signatureFileOf, signatureOf, type ReportSigner } from './signature.js';
import { isKitSignature, ReportFolder } from './write.js';

/** The reporters of the report folder `dir`, in the order their files are listed. */
export function reportFolder(dir: string, signer: ReportSigner | undefined, onFailure: (error: unknown) => void): Reporter[] {
  const folder = new ReportFolder(dir, onFailure);
  return [jsonReporter(folder, signer), fileReporter(folder, 'junit.xml', renderJUnit), fileReporter(folder, 'report.html', renderHtml)];
}

/** report.json (P-CLI), and with a key report.json.sig beside it: the signature of its exact bytes by the key
 * the report names in certification.signedBy. */
function jsonReporter(folder: ReportFolder, signer: ReportSigner | undefined): Reporter {
  return {
    async onRunEnd(end) {
      const json = reportText(end.report);
      // A signature left by an earlier run never sits beside a report it does not sign; another tool's stays.
      if (signer === undefined)
        await folder.attempt(end, async () => {
          if (await isKitSignature(folder.dir)) await rm(signatureFileOf(join(folder.dir, 'report.json')), { force: true });
        });
      await folder.write(end, 'report.json', json);
      if (signer !== undefined) await folder.write(end, 'report.json.sig', signatureOf(Buffer.from(json, 'utf8'), signer.key));
    },
  };
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
