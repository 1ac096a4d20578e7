import { parseArgs } from 'node:util';
import { webhookUrlProblem } from '../core/webhooks.js';
import { UsageError, type Io } from './io.js';

interface OptionSpec {
  readonly name: string;
  readonly short?: string;
  /** Placeholder shown in help, e.g. "FILE": an option with one takes a string, one without is a flag. */
  readonly value?: string;
  readonly description: string;
  readonly required?: boolean;
  /** May be given more than once; the value is then a list. */
  readonly multiple?: boolean;
}

/** What the parser hands a command for one option: a boolean, a string, or (given more than once) a list. */
type OptionValue<O extends OptionSpec> = O extends { value: string } ? (O['multiple'] extends true ? string[] : string) : boolean;

// Always present after parsing: a flag (false when absent), a list ([] when absent), a required option
// (the parser refuses its absence). Anything else is there only when given.
type AlwaysPresent<O extends OptionSpec> = O extends { value: string; multiple?: false; required?: false } ? false : true;

/** A command's parsed options, typed from its option table: a name not in the table does not compile. */
export type ParsedOptions<T extends readonly OptionSpec[]> = string extends T[number]['name'] ? AnyParsedOptions : TypedOptions<T>;

/** The options of a command whose table is not known here (main's list of every command). */
type AnyParsedOptions = Record<string, string | boolean | string[] | undefined> & { help: false };

type TypedOptions<T extends readonly OptionSpec[]> = {
  [O in T[number] as AlwaysPresent<O> extends true ? O['name'] : never]: OptionValue<O>;
} & {
  [O in T[number] as AlwaysPresent<O> extends true ? never : O['name']]?: OptionValue<O>;
} & { help: false };

/** What the parser returns when --help was given: the table's own rules (a required option) are not applied. */
type HelpAsked = { help: true };

export interface CommandSpec<T extends readonly OptionSpec[]> {
  name: string;
  summary: string;
  usage: string;
  options: T;
  details?: string[];
  examples?: string[];
  /** Takes positional arguments (verify-client's COMMAND); others refuse them. */
  positionals?: boolean;
  /** Ends normally on the first SIGINT or SIGTERM (proxy: io.stop), writing its reports; a second one interrupts it. */
  stopsOnSignal?: boolean;
  run(options: ParsedOptions<T>, io: Io, positionals: string[]): Promise<number>;
}

/** Any command, as main lists them. Not CommandSpec<readonly OptionSpec[]>: TypeScript compares CommandSpecs
 * by their tables alone, and no table is every table. */
export interface Command extends Omit<CommandSpec<readonly OptionSpec[]>, 'run'> {
  run(options: AnyParsedOptions, io: Io, positionals: string[]): Promise<number>;
}

/** A command whose `run` is typed from its own option table (inferred, no `as const`). */
export function defineCommand<const T extends readonly OptionSpec[]>(spec: CommandSpec<T>): CommandSpec<T> {
  return spec;
}

const HELP: OptionSpec = { name: 'help', short: 'h', description: 'show this help' };

/** Parses argv against a command's option table; the same table writes its help. */
export function parseOptions<T extends readonly OptionSpec[]>(
  spec: Pick<CommandSpec<T>, 'name' | 'options' | 'positionals'>,
  argv: string[],
): { options: ParsedOptions<T> | HelpAsked; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(
        [...spec.options, HELP].map((o) => [
          o.name,
          {
            type: o.value === undefined ? 'boolean' : 'string',
            ...(o.short ? { short: o.short } : {}),
            ...(o.multiple ? { multiple: true } : {}),
            // A flag not given is false and a list not given is empty, as ParsedOptions promises.
            ...(o.value === undefined ? { default: o.multiple ? [] : false } : o.multiple ? { default: [] } : {}),
          },
        ]),
      ),
    });
  } catch (error) {
    throw new UsageError(`${spec.name}: ${cleanParseError((error as Error).message)}; see svc-conformance ${spec.name} --help`);
  }
  const values = parsed.values;
  if (values.help === true) return { options: { help: true }, positionals: parsed.positionals };
  if (!spec.positionals && parsed.positionals.length > 0) {
    throw new UsageError(
      `${spec.name}: unexpected argument "${parsed.positionals[0]}"; options are written --name value (see svc-conformance ${spec.name} --help)`,
    );
  }
  const missing = spec.options.find((option) => option.required && values[option.name] === undefined);
  if (missing !== undefined)
    throw new UsageError(
      `${spec.name}: --${missing.name} ${missing.value ?? ''} is required; see svc-conformance ${spec.name} --help`.replace('  ', ' '),
    );
  // parseArgs types its values from a table it cannot see through; the checks above are what make
  // them match ParsedOptions<T>: each value has its option's type, and a required one is present.
  return { options: values as ParsedOptions<T>, positionals: parsed.positionals };
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

export function formatHelp(spec: Command): string {
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

/** An option that takes one of a few words; anything else is a UsageError naming them. */
export function oneOf<const C extends readonly string[]>(command: string, name: string, value: string, choices: C): C[number] {
  if (!choices.includes(value)) throw new UsageError(`${command}: --${name} takes ${choices.join(' or ')}, not ${JSON.stringify(value)}`);
  return value;
}

/** A receiver's URL (--url, --webhook-url) the kit can deliver to; a UsageError names what is wrong with it. */
export function webhookUrlOption(command: string, name: string, url: string): string {
  const problem = webhookUrlProblem(url);
  if (problem !== undefined)
    throw new UsageError(`${command}: --${name} cannot be used: ${problem}; e.g. --${name} http://127.0.0.1:4020/webhooks`);
  return url;
}
