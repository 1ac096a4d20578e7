// `svc-conformance verify-report FILE`: whether a report.json is as the kit wrote it, by its digest.
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { checkSeal } from '../../reports/seal.js';
import { UsageError } from '../io.js';
import type { CommandSpec } from '../options.js';

export const verifyReportCommand: CommandSpec = {
  name: 'verify-report',
  summary: 'Says whether a report.json is unchanged since the run wrote it, by recomputing its SHA-256 digest.',
  usage: 'svc-conformance verify-report FILE|DIR',
  positionals: true,
  options: [],
  details: [
    'FILE is a report.json (DIR: the report folder holding one). The digest covers everything in it: the verdict, every',
    'requirement and its evidence, the target, the configuration fingerprint and the options. Any changed byte is found.',
    'Exit status: 0 unchanged, 1 altered (or not a sealed report), 2 bad usage or the file cannot be read.',
  ],
  examples: ['svc-conformance verify-report svc-reports/run/report.json'],
  async run(_options, io, positionals) {
    if (positionals.length !== 1) throw new UsageError('verify-report: give one report.json (or its folder), e.g. verify-report svc-reports/run/report.json');
    let path = resolve(io.cwd, positionals[0]!);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) throw new UsageError(`verify-report: no such file ${positionals[0]}`);
    if (info.isDirectory()) path = join(path, 'report.json');
    let text: string;
    try {
      // A report is a few MB at most; refuse to read something far larger.
      if ((await stat(path)).size > 256 * 1024 * 1024) throw new UsageError(`verify-report: ${positionals[0]} is over 256 MiB: not a report.json`);
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`verify-report: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const check = checkSeal(text);
    if (!check.intact) {
      io.stdout(`✗ ALTERED  ${path}: ${check.why}\n`);
      return 1;
    }
    const r = check.report;
    io.stdout(`✓ UNCHANGED  ${path}: ${r.digest}\n  ${r.tool.name} ${r.tool.version}, profile ${r.certification?.profile ?? 'unknown'}; ${r.verdict} (${r.target.baseUrl}, ${r.target.environment}), started ${r.startedAt}\n`);
    return 0;
  },
};
