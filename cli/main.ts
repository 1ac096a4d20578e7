import { readPackageJson } from '../common/package-root.js';
import { visible } from '../common/visible.js';
import { ReportDirError } from '../reports/write.js';
import { KeyFileError } from '../reports/signature.js';
import { CaptureError } from '../signer/capture-error.js';
import { DiagnoseInputError } from '../signer/diagnose.js';
import { ConfigError } from '../suites/config.js';
import { diagnoseCommand } from './commands/diagnose.js';
import { judgeCommand } from './commands/judge.js';
import { listCommand } from './commands/list.js';
import { openapiCommand } from './commands/openapi.js';
import { proxyCommand } from './commands/proxy.js';
import { replayCommand } from './commands/replay.js';
import { runCommand } from './commands/run.js';
import { serveCommand } from './commands/serve.js';
import { signCommand } from './commands/sign.js';
import { triggerCommand } from './commands/trigger.js';
import { verifyClientCommand } from './commands/verify-client.js';
import { verifyReceiverCommand } from './commands/verify-receiver.js';
import { verifyReportCommand } from './commands/verify-report.js';
import { exitStatusOf, InterruptRegistry, interruptedLine, type InterruptSignal } from './interrupt.js';
import { processIo, UsageError, type Io } from './io.js';
import { formatHelp, parseOptions, type Command } from './options.js';

const COMMANDS: Command[] = [
  runCommand,
  listCommand,
  serveCommand,
  triggerCommand,
  verifyClientCommand,
  verifyReceiverCommand,
  verifyReportCommand,
  judgeCommand,
  proxyCommand,
  signCommand,
  diagnoseCommand,
  replayCommand,
  openapiCommand,
];

/** A config, a key file, a report folder or a captured request that cannot be used. */
const USER_ERRORS = [ConfigError, KeyFileError, ReportDirError, CaptureError];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return (
    [
      'Usage: svc-conformance <command> [options]',
      '',
      'Contract and conformance kit for the payment-gateway and payout-banking API.',
      '',
      'Commands:',
      ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
      '',
      "Run `svc-conformance <command> --help` for a command's options.",
    ].join('\n') + '\n'
  );
}

/** Runs the command line; returns the exit code. Never throws for bad input: it says what to fix. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(overview());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(readPackageJson<{ version: string }>('package.json').version + '\n');
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    const known = COMMANDS.map((c) => c.name).join(', ');
    io.stderr(`svc-conformance: unknown command \`${name}\`; available: ${known} (see svc-conformance --help)\n`);
    return 2;
  }
  try {
    const { options, positionals } = parseOptions(command, rest);
    if (options.help) {
      io.stdout(formatHelp(command));
      return 0;
    }
    return await runInterruptibly(command, options, positionals, io);
  } catch (error) {
    // Bad usage or input is the user's to fix (exit 2), whichever command met it. These messages start
    // with the command's name ("sign: …"); the others' are given it.
    if (error instanceof UsageError || error instanceof DiagnoseInputError) {
      io.stderr(`svc-conformance ${visible(error.message)}\n`);
      return 2;
    }
    if (USER_ERRORS.some((kind) => error instanceof kind)) {
      io.stderr(`svc-conformance ${command.name}: ${visible((error as Error).message)}\n`);
      return 2;
    }
    // A bug in the kit, not the user's input: say so plainly, without a stack unless asked.
    const detail = io.env.SVC_DEBUG ? `\n${(error as Error).stack}` : ' (set SVC_DEBUG=1 for the stack)';
    io.stderr(`svc-conformance: internal error: ${visible((error as Error).message)}${detail}\n`);
    return 70;
  }
}

/** Runs the command with its own interrupts: once interrupted, what it holds is undone and whatever it
 * still does is not heard; the exit status is the interrupt's. */
async function runInterruptibly(command: Command, options: Parameters<Command['run']>[0], positionals: string[], io: Io): Promise<number> {
  const interrupts = new InterruptRegistry();
  const quietOnceInterrupted = (write: (text: string) => void) => (text: string) => {
    if (!interrupts.signal.aborted) write(text);
  };
  const stop = new AbortController();
  const commandIo: Io = {
    ...io,
    stdout: quietOnceInterrupted(io.stdout),
    stderr: quietOnceInterrupted(io.stderr),
    interrupts,
    stop: stop.signal,
  };
  let interrupted: Promise<number> | undefined;
  let stopListening: (() => void) | undefined;
  const onInterrupt = new Promise<number>((resolveInterrupt) => {
    stopListening = io.onInterrupt?.((signal: InterruptSignal) => {
      if (command.stopsOnSignal && (signal === 'SIGINT' || signal === 'SIGTERM') && !stop.signal.aborted) {
        stop.abort(signal);
        return Promise.resolve('stopped' as const);
      }
      interrupted ??= interrupts.interrupt(signal).then((said) => {
        // A reader that stopped early (`list | head -1`) from a command that held nothing: as with any
        // Unix tool, only the status says it; a line would be noise on every such pipe.
        if (signal !== 'EPIPE' || said.length > 0) io.stderr(interruptedLine(command.name, signal, said));
        return exitStatusOf(signal);
      });
      resolveInterrupt(interrupted);
      return interrupted.then(() => {});
    });
  });
  try {
    const ending = command.run(options, commandIo, positionals).then(
      (code) => interrupted ?? code,
      (error: unknown) => {
        if (interrupted !== undefined) return interrupted;
        throw error;
      },
    );
    return await Promise.race([ending, onInterrupt]);
  } finally {
    stopListening?.();
  }
}
