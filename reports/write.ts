import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { jsonOf } from '../core/json-of.js';
import type { RunEnd } from '../core/reporter.js';
import { looksLikeSignature } from './signature.js';

/** A report folder that cannot take the reports: said before the first request, not after the run. */
export class ReportDirError extends Error {
  override readonly name = 'ReportDirError';
  readonly code = 'SVC_REPORT_DIR';
}

/** Makes sure the reports can be written to `dir` (creating it) with a probe file; a ReportDirError names the fix. */
export async function prepareReportDir(dir: string): Promise<void> {
  try {
    await makeFolders(dir);
  } catch (error) {
    throw new ReportDirError(
      `cannot use report dir ${dir}: ${await whyNotDir(dir, error as NodeJS.ErrnoException)}; choose another with --report-dir`,
    );
  }
  const probe = join(dir, `.svc-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await (await open(probe, 'wx')).close();
    await rm(probe, { force: true });
  } catch (error) {
    throw new ReportDirError(
      `cannot write to report dir ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); choose another with --report-dir`,
    );
  }
  // A folder by a report's name would stop the write (and the removal of an earlier report) at the end of the run.
  for (const { name } of REPORT_FILES) {
    if ((await lstat(join(dir, name)).catch(() => undefined))?.isDirectory()) {
      throw new ReportDirError(
        `cannot use report dir ${dir}: ${name} there is a folder, and the reports are written as a file of that name; move it, or choose another with --report-dir`,
      );
    }
  }
}

async function whyNotDir(dir: string, error: NodeJS.ErrnoException): Promise<string> {
  if (error.code === 'EEXIST' || error.code === 'ENOTDIR') {
    // Either dir itself is a file, or one of the folders above it is.
    for (let path = dir; path !== dirname(path); path = dirname(path)) {
      const info = await stat(path).catch(() => undefined);
      if (info !== undefined && !info.isDirectory()) return path === dir ? 'it is a file, not a folder' : `${path} is a file, not a folder`;
    }
  }
  if (error.code === 'EACCES' || error.code === 'EPERM' || error.code === 'EROFS') return 'no permission to create it';
  if (error.code === 'ENOENT') return 'its file system does not take new folders there (ENOENT)';
  return error.code ?? error.message;
}

/** `mkdir -p` one folder at a time: Node's recursive mkdir loops forever where the system answers
 * ENOENT for a folder whose parent exists (/proc/x). */
async function makeFolders(dir: string): Promise<void> {
  const missing: string[] = [];
  // Anything but "no such file" (a file in the way, no permission) is left for mkdir below to say.
  const absent = (path: string) =>
    stat(path).then(
      () => false,
      (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
    );
  for (let path = dir; await absent(path); path = dirname(path)) {
    missing.unshift(path);
    if (dirname(path) === path) break;
  }
  for (const folder of missing)
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  // Says EEXIST when dir is a file: whyNotDir turns that into "it is a file".
  await mkdir(dir, { recursive: true });
}

/** Temporary file plus rename: a reader never sees half a report, and a symlink planted at the target is replaced, not followed. */
export async function writeAtomically(path: string, content: string): Promise<void> {
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, content, { flag: 'wx', mode: 0o644 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The file reporters' folder: on the first failed write (a full disk) none of its files is listed and the rest are not tried. */
export class ReportFolder {
  private failed = false;
  private readonly written: string[] = [];

  constructor(
    readonly dir: string,
    /** Told of the failure, once: the command says it in one line; writeReports throws it. */
    private readonly onFailure: (error: unknown) => void,
  ) {}

  /** Writes `name` in the folder (made again if the run removed it) and lists it among the run's files. */
  async write(end: RunEnd, name: string, content: string): Promise<void> {
    const path = join(this.dir, name);
    await this.attempt(end, async () => {
      if (this.written.length === 0) await makeFolders(this.dir);
      await writeAtomically(path, content);
    });
    if (this.failed) return;
    this.written.push(path);
    end.files.push(path);
  }

  /** Does `work` for the folder unless a write has failed; its failure is the folder's. */
  async attempt(end: RunEnd, work: () => Promise<void>): Promise<void> {
    if (this.failed) return;
    try {
      await work();
    } catch (error) {
      this.failed = true;
      end.files = end.files.filter((file) => !this.written.includes(file));
      this.onFailure(error);
    }
  }
}

/** The report files, each with how the kit knows its own by content: another tool's junit.xml may sit in ".". */
const REPORT_FILES: ReadonlyArray<{ name: string; isKits: (text: string, kitReportBeside: boolean) => boolean }> = [
  { name: 'report.json', isKits: (text) => toolNameOf(text) === 'svc-conformance' },
  { name: 'report.json.sig', isKits: (text, kitReportBeside) => kitReportBeside && looksLikeSignature(text) },
  // renderJUnit's root names the kit first; renderHtml's footer says what generated it.
  { name: 'junit.xml', isKits: (text) => /^<\?xml [^>]*\?>\n<testsuites name="svc-conformance /.test(text) },
  {
    name: 'report.html',
    isKits: (text) =>
      text.startsWith('<!doctype html>') && text.includes('<footer class="wrap">') && text.includes('Generated by svc-conformance '),
  },
];

/** Larger than any report the kit writes: a file this big by a report's name is someone else's, and is not read. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/** Removes an earlier run's reports, so a run that ends without its own leaves no stale verdict.
 * Only the kit's plain files go (not links, folders, another tool's); returns their names. */
export async function removeReports(dir: string): Promise<string[]> {
  const kitReportBeside = await isKitFile(dir, REPORT_FILES[0]!, false);
  const removed: string[] = [];
  for (const file of REPORT_FILES) {
    if (!(await isKitFile(dir, file, kitReportBeside))) continue;
    await rm(join(dir, file.name), { force: true });
    removed.push(file.name);
  }
  return removed;
}

/** Whether report.json.sig in `dir` is the kit's: a signature beside a report.json the kit wrote. */
export async function isKitSignature(dir: string): Promise<boolean> {
  const kitReportBeside = await isKitFile(dir, REPORT_FILES[0]!, false);
  return kitReportBeside && (await isKitFile(dir, REPORT_FILES[1]!, kitReportBeside));
}

/** Whether `file` in `dir` is a plain file whose content is the kit's (not absent, not a link or a folder, not another's). */
async function isKitFile(dir: string, { name, isKits }: (typeof REPORT_FILES)[number], kitReportBeside: boolean): Promise<boolean> {
  const path = join(dir, name);
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined || !info.isFile() || info.size > MAX_REPORT_BYTES) return false;
  const text = await readFile(path, 'utf8').catch(() => undefined);
  return text !== undefined && isKits(text, kitReportBeside);
}

function toolNameOf(text: string): unknown {
  return (jsonOf(text) as { tool?: { name?: unknown } } | null | undefined)?.tool?.name;
}
