// report.json (P-CLI) in the report folder, and with a key report.json.sig beside it: the signature of
// its exact bytes by the key the report names in certification.signedBy.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Reporter, RunEnd } from '../core/reporter.js';
import { reportText } from './seal.js';
import { signatureFileOf, signatureOf, type ReportSigner } from './signature.js';
import { isKitSignature, type ReportFolder } from './write.js';

export class JsonReportReporter implements Reporter {
  constructor(
    private readonly folder: ReportFolder,
    private readonly signer?: ReportSigner,
  ) {}

  async onRunEnd(end: RunEnd): Promise<void> {
    const { dir } = this.folder;
    const json = reportText(end.report);
    // A signature left by an earlier run never sits beside a report it does not sign; another tool's stays.
    if (this.signer === undefined)
      await this.folder.attempt(end, async () => {
        if (await isKitSignature(dir)) await rm(signatureFileOf(join(dir, 'report.json')), { force: true });
      });
    await this.folder.write(end, 'report.json', json);
    if (this.signer !== undefined) await this.folder.write(end, 'report.json.sig', signatureOf(Buffer.from(json, 'utf8'), this.signer.key));
  }
}
