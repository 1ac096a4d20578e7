// The README is short and example-led; docs/ holds the rest (issue 41). These keep that true: every
// command and option that --help shows is documented in docs/, and every link stays inside the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from './io.js';
import { main } from './main.js';

const ROOT = new URL('..', import.meta.url).pathname;
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

async function help(argv: string[]): Promise<string> {
  let out = '';
  const io: Io = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (out += text),
    readStdin: () => Promise.resolve(Buffer.alloc(0)),
    stdinIsTTY: true,
    env: {},
    cwd: ROOT,
  };
  expect(await main(argv, io), argv.join(' ')).toBe(0);
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');

function anchorsOf(file: string): Set<string> {
  const text = read(file);
  return new Set([
    ...[...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!),
    ...[...text.matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1]!.replace(/<a id="[^"]+"><\/a>/, ''))),
  ]);
}

describe('the documentation', () => {
  it('keeps the README at most 200 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(201);
  });

  it('documents every command under a heading naming it, and every option --help shows on that page', async () => {
    const commands = [...(await help(['--help'])).matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1]!);
    expect(commands.length).toBeGreaterThanOrEqual(11);
    const missing: string[] = [];
    for (const command of commands) {
      const page = PAGES.filter((p) => p.startsWith('docs/')).find((p) =>
        [...read(p).matchAll(/^#+ (.+)$/gm)].some((m) => m[1]!.includes(`\`${command}\``)),
      );
      if (page === undefined) {
        missing.push(`${command}: no docs/ page has a heading naming it`);
        continue;
      }
      const options = (await help([command, '--help'])).split('\nOptions:\n')[1]!;
      for (const [, option] of options.matchAll(/^ {2}(?:-\w, | {4})--([a-z-]+)/gm)) {
        if (option === 'help') continue;
        if (!new RegExp(`--${option}(?![a-z-])`).test(read(page))) missing.push(`${command} --${option}: not in ${page}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('links only to files and headings of the repository that exist', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) {
          broken.push(`${page}: ${target} leaves the repository`);
          continue;
        }
        const [path, anchor] = target!.split('#');
        const file = path === '' ? page : relative(ROOT, join(ROOT, dirname(page), path!));
        if (!existsSync(join(ROOT, file))) broken.push(`${page}: ${target} (no ${file})`);
        else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor))
          broken.push(`${page}: ${target} (no heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names no address outside the repository but loopback and placeholder hosts', () => {
    const placeholder = /^(127\.0\.0\.1|localhost|…|[\w.-]+\.example(\.test)?)$/;
    const outside = PAGES.flatMap((page) =>
      [...read(page).matchAll(/\bhttps?:\/\/([^/:\s)"'`<>]+)/g)].filter((m) => !placeholder.test(m[1]!)).map((m) => `${page}: ${m[0]}`),
    );
    expect(outside).toEqual([]);
  });
});
