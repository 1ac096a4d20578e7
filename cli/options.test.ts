// The option table types what a command reads: these type assertions are checked by `tsc` (npm run
// typecheck, part of npm test); a `@ts-expect-error` line that compiles is itself an error there.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { runCommand } from './commands/run.js';
import type { serveCommand } from './commands/serve.js';
import { defineCommand, parseOptions, type ParsedOptions } from './options.js';

const example = defineCommand({
  name: 'example',
  summary: 'an example',
  usage: 'example',
  options: [
    { name: 'report-dir', value: 'D', description: 'where' },
    { name: 'strict', description: 'stricter' },
    { name: 'only', value: 'PREFIX', multiple: true, description: 'these' },
    { name: 'url', value: 'URL', required: true, description: 'there' },
  ],
  async run(options) {
    expectTypeOf(options['report-dir']).toEqualTypeOf<string | undefined>();
    expectTypeOf(options.strict).toEqualTypeOf<boolean>();
    expectTypeOf(options.only).toEqualTypeOf<string[]>();
    expectTypeOf(options.url).toEqualTypeOf<string>();
    // @ts-expect-error: a misspelt option is not in the table
    void options.strcit;
    return Promise.resolve(options.strict ? 1 : 0);
  },
});

describe('ParsedOptions: typed from the option table', () => {
  it("types the kit's own commands from their tables", () => {
    type RunOptions = ParsedOptions<(typeof runCommand)['options']>;
    expectTypeOf<RunOptions['report-dir']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<RunOptions['strict']>().toEqualTypeOf<boolean>();
    expectTypeOf<RunOptions['only']>().toEqualTypeOf<string[]>();
    // Shared options (--format, --sign-key, --require-all) keep their names and types when spread in.
    expectTypeOf<RunOptions['sign-key']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<RunOptions['require-all']>().toEqualTypeOf<boolean>();
    expectTypeOf<RunOptions>().not.toHaveProperty('report_dir');
    expectTypeOf<ParsedOptions<(typeof serveCommand)['options']>['fault']>().toEqualTypeOf<string[]>();
  });

  it('gives an absent flag as false and an absent list as empty, as the types say', () => {
    expect(parseOptions(example, ['--url', 'http://127.0.0.1:1/']).options).toEqual({
      url: 'http://127.0.0.1:1/',
      strict: false,
      only: [],
      help: false,
    });
    expect(parseOptions(example, ['--url', 'u', '--strict', '--only', 'A', '--only', 'B', '--report-dir', 'out']).options).toEqual({
      url: 'u',
      strict: true,
      only: ['A', 'B'],
      'report-dir': 'out',
      help: false,
    });
  });

  it("with --help hands back only that: the table's rules (a required option) are not applied", () => {
    expect(parseOptions(example, ['--help']).options).toEqual({ help: true });
  });
});
