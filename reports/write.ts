import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './html.js';
import { renderJUnit } from './junit.js';
import type { Report } from './model.js';

/** Writes report.json (P-CLI), junit.xml and report.html; returns their paths. */
export async function writeReports(report: Report, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: Array<[string, string]> = [
    ['report.json', JSON.stringify(report, null, 2) + '\n'],
    ['junit.xml', renderJUnit(report)],
    ['report.html', renderHtml(report)],
  ];
  const paths: string[] = [];
  for (const [name, content] of files) {
    const path = join(dir, name);
    await writeFile(path, content);
    paths.push(path);
  }
  return paths;
}
