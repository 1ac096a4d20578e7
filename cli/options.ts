import { parseArgs } from 'node:util';
import { UsageError, type Io } from './io.js';

export interface OptionSpec {
  name: string;
  short?: string;
  type: 'string' | 'boolean';
  /** Placeholder shown in help, e.g. "FILE". */
  value?: string;
  description: string;
  required?: boolean;
  /** May be given more than once; the value is then a list. */
  multiple?: boolean;
}

export type ParsedOptions = Record<string, string | boolean | string[] | undefined>;

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  options: OptionSpec[];
  details?: string[];
  examples?: string[];
  /** Takes positional arguments (verify-client's COMMAND); others refuse them. */
  positionals?: boolean;
  run(options: ParsedOptions, io: Io, positionals: string[]): Promise<number>;
}

const HELP: OptionSpec = { name: 'help', short: 'h', type: 'boolean', description: 'show this help' };

/** Parses argv against a command's option table; the same table writes its help. */
export function parseOptions(spec: CommandSpec, argv: string[]): { options: ParsedOptions; positionals: string[] } {
  const table = [...spec.options, HELP];
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(
        table.map((o) => [o.name, { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) }]),
      ),
    });
  } catch (error) {
    throw new UsageError(`${spec.name}: ${cleanParseError((error as Error).message)}; see svc-conformance ${spec.name} --help`);
  }
  const options = parsed.values as ParsedOptions;
  if (options.help) return { options, positionals: parsed.positionals };
  if (!spec.positionals && parsed.positionals.length > 0) {
    throw new UsageError(
      `${spec.name}: unexpected argument "${parsed.positionals[0]}"; options are written --name value (see svc-conformance ${spec.name} --help)`,
    );
  }
  for (const option of spec.options) {
    if (option.required && options[option.name] === undefined) {
      throw new UsageError(
        `${spec.name}: --${option.name} ${option.value ?? ''} is required; see svc-conformance ${spec.name} --help`.replace('  ', ' '),
      );
    }
  }
  return { options, positionals: parsed.positionals };
}

function cleanParseError(message: string): string {
  // node's messages end with advice about "--" that does not apply to these commands.
  const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(message);
  if (ambiguous) return `${ambiguous[1]} needs a value; a value that starts with a dash is written ${ambiguous[1]}=-…`;
  return message
    .replace(/\. To specify a positional argument.*$/s, '')
    .replace(/^Unknown option/, 'unknown option')
    .replace(/\.$/, '');
}

export function formatHelp(spec: CommandSpec): string {
  const rows = [...spec.options, HELP].map((o) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.value ? ` ${o.value}` : ''}${o.multiple ? ' …' : ''}`;
    return [flag, o.description + (o.required ? ' (required)' : '')] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  const lines = [`Usage: ${spec.usage}`, '', spec.summary, ''];
  if (spec.details) lines.push(...spec.details, '');
  lines.push('Options:', ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`));
  if (spec.examples) lines.push('', 'Examples:', ...spec.examples.map((e) => `  ${e}`));
  return lines.join('\n') + '\n';
}

/** A whole-number option in [min, max], written in plain digits ("1e3", "0x10", "" and "1.5" are refused). */
export function wholeNumber(command: string, name: string, value: unknown, min: number, max: number): number {
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value) || n < min || n > max) {
    throw new UsageError(`${command}: --${name} takes a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  }
  return n;
}
