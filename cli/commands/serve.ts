import { lstat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { writeAtomically } from '../../reports/write.js';
import {
  FAULTS,
  FAULT_NAMES,
  MAX_HANG_SECONDS,
  SCENARIOS,
  SCENARIO_NAMES,
  parseFaults,
  parseScenarios,
  startSandbox,
  type SandboxVariant,
} from '../../sandbox/index.js';
import { isLoopbackHost } from '../../core/loopback.js';
import { interruptsOf } from '../interrupt.js';
import { asUsage, usableOutputFile, UsageError, type Io } from '../io.js';
import { defineCommand, oneOf, type ParsedOptions, webhookUrlOption, wholeNumber } from '../options.js';

export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'Runs the reference sandbox: every operation of the interface and the profile, demo merchants, fault and scenario switches.',
  usage:
    'svc-conformance serve [--port N] [--host H] [--config-out F] [--webhook-url URL] [--allow-remote-webhooks] [--fault NAME]… [--scenario NAME]… [variant options]',
  options: [
    { name: 'port', value: 'N', description: 'port to listen on (default: a free one)' },
    { name: 'host', value: 'H', description: 'address to listen on (default: 127.0.0.1)' },
    { name: 'config-out', value: 'F', description: 'write a P-CFG config for this sandbox to F once it listens' },
    { name: 'webhook-url', value: 'URL', description: "deliver every demo merchant's webhooks (P-HOOK) to URL, logging each attempt" },
    {
      name: 'allow-remote-webhooks',
      description:
        'let the registration control request (POST /sandbox/webhooks) name a receiver off this machine (default: loopback only)',
    },
    { name: 'fault', value: 'NAME', multiple: true, description: 'break one profile rule on purpose (see --list-faults)' },
    { name: 'list-faults', description: 'list the fault switches and the rule each breaks, then exit' },
    {
      name: 'scenario',
      value: 'NAME',
      multiple: true,
      description: 'misbehave once on purpose, to see a client recover (see --list-scenarios)',
    },
    { name: 'list-scenarios', description: 'list the scenarios and the client rule each tests, then exit' },
    { name: 'hang-seconds', value: 'SECONDS', description: 'how long create-order-hang-once holds its answer, up to 86400 (default 30)' },
    { name: 'create-status', value: '200|201', description: 'HTTP status of a created order (default 201)' },
    {
      name: 'verify',
      value: 'raw|canonical',
      description: 'verify signatures over the raw body or a re-canonicalized parse (default raw)',
    },
    { name: 'replay', value: 'allow|refuse', description: 'accept or refuse a re-sent timestamp and signature (default refuse)' },
    { name: 'tolerance', value: 'SECONDS', description: 'timestamp window either side of the clock (default 300)' },
    { name: 'quiet', description: 'do not log requests' },
  ],
  details: [
    'Stops on Ctrl-C or SIGTERM (exit 130), or SIGHUP (129), saying so. Requests are logged to stderr, one line each, without secrets.',
    'A fault breaks a rule for as long as the sandbox runs; a scenario fires once, on the first authenticated request it applies to.',
    "With --webhook-url, every order and payout change fires its event (P-HOOK-2), signed with the merchant's secret and retried",
    'after 1, 2, 4 and 8 s until answered 200; each attempt is logged to stderr (event, id, attempt, status, ms), even with --quiet.',
    'Make a change that fires one with svc-conformance trigger EVENT.',
    'The demo credentials are public: a --host or --webhook-url other than loopback is warned about, and POST /sandbox/webhooks registers only a loopback URL (127.0.0.0/8, ::1, localhost) or the --webhook-url given, unless --allow-remote-webhooks.',
  ],
  examples: [
    'svc-conformance serve --port 4010 --config-out sandbox.json',
    'svc-conformance serve --port 4010 --config-out sandbox.json --webhook-url http://127.0.0.1:4020/webhooks',
    'svc-conformance serve --fault dup-race --fault auth-no-window',
    'svc-conformance serve --scenario create-order-503-once --scenario payout-failed',
  ],
  async run(options, io) {
    if (options['list-faults']) return listed(io, FAULT_NAMES, (n) => `${FAULTS[n].rule.padEnd(12)}${FAULTS[n].description}`);
    if (options['list-scenarios'])
      return listed(io, SCENARIO_NAMES, (n) => `${SCENARIOS[n].rules.join(',').padEnd(24)}${SCENARIOS[n].description}`);
    const settings = readSettings(options);
    const configOutGiven = options['config-out'];
    const configOut = configOutGiven !== undefined ? { path: resolve(io.cwd, configOutGiven), given: configOutGiven } : undefined;
    if (configOut !== undefined) await usableConfigOut(configOut.path, configOut.given);
    const sandbox = await startSandbox({
      ...settings,
      log: options.quiet ? () => {} : (line) => io.stderr(line + '\n'),
      deliveryLog: (line) => io.stderr(line + '\n'),
    }).catch((error: Error) => {
      throw new UsageError(`serve: cannot listen on ${settings.host}:${settings.port}: ${error.message}`);
    });
    if (configOut !== undefined) {
      try {
        // Renamed into place: a link planted after the check above is replaced, never written through.
        await writeAtomically(configOut.path, JSON.stringify(sandbox.config, null, 2) + '\n');
      } catch (error) {
        await sandbox.close();
        // The error's own text names the temporary file it was writing, not the one the user gave.
        const code = (error as NodeJS.ErrnoException).code;
        throw new UsageError(
          `serve: cannot write --config-out ${configOut.given}: ${code !== undefined ? `the system refused (${code}); give a file in a folder you can write` : (error as Error).message}`,
        );
      }
    }
    const warnings = [bindWarning(settings.host), settings.webhookUrl === undefined ? undefined : webhookUrlWarning(settings.webhookUrl)];
    for (const warning of warnings.filter((w) => w !== undefined)) io.stderr(`svc-conformance serve: ${warning}\n`);
    io.stdout(banner(sandbox, settings));
    io.stdout('Config for `svc-conformance run --config FILE` (also written by --config-out):\n');
    io.stdout(JSON.stringify(sandbox.config, null, 2) + '\n');
    // Ctrl-C or kill is how serve ends: main() closes the sandbox, says so, and exits 130.
    const interrupts = interruptsOf(io);
    interrupts.hold({ done: 'closed the reference sandbox', failed: 'could not close the reference sandbox' }, () => sandbox.close());
    await new Promise((resolveStop) => interrupts.signal.addEventListener('abort', resolveStop, { once: true }));
    return 130;
  },
});

/** --list-faults and --list-scenarios: each name in a column, then what `rest` says of it. */
function listed<N extends string>(io: Io, names: readonly N[], rest: (name: N) => string): number {
  const width = Math.max(...names.map((n) => n.length)) + 2;
  io.stdout(names.map((n) => `${n.padEnd(width)}${rest(n)}`).join('\n') + '\n');
  return 0;
}

/** --config-out gets the demo secrets: a symbolic link there would overwrite whatever it points to, so it is refused. */
async function usableConfigOut(path: string, given: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink())
    throw new UsageError(
      `serve: --config-out ${given} is a symbolic link; the sandbox does not write through links: remove it or give another file`,
    );
  await usableOutputFile('serve', 'config-out', { path, shown: given, example: 'sandbox.json' }, info);
}

function readSettings(options: ParsedOptions<(typeof serveCommand)['options']>) {
  const port = options.port === undefined ? 0 : wholeNumber('serve', 'port', options.port, 0, 65_535);
  const host = options.host ?? '127.0.0.1';
  const faults = [...asUsage('serve', () => parseFaults(options.fault))];
  const scenarios = [...asUsage('serve', () => parseScenarios(options.scenario))];
  const hangSeconds = options['hang-seconds'] === undefined ? undefined : Number(options['hang-seconds']);
  if (hangSeconds !== undefined && !(hangSeconds > 0 && hangSeconds <= MAX_HANG_SECONDS)) {
    throw new UsageError(
      `serve: --hang-seconds takes a number of seconds above 0 and at most ${MAX_HANG_SECONDS} (a day), not ${JSON.stringify(options['hang-seconds'])}`,
    );
  }
  const variant: Partial<SandboxVariant> = {};
  const status = options['create-status'];
  if (status !== undefined) variant.createStatus = Number(oneOf('serve', 'create-status', status, ['200', '201'])) as 200 | 201;
  if (options.verify !== undefined) variant.verify = oneOf('serve', 'verify', options.verify, ['raw', 'canonical']);
  if (options.replay !== undefined) variant.replay = oneOf('serve', 'replay', options.replay, ['allow', 'refuse']);
  if (options.tolerance !== undefined) variant.toleranceSeconds = wholeNumber('serve', 'tolerance', options.tolerance, 1, 86_400);
  const webhookUrl = options['webhook-url'];
  if (webhookUrl !== undefined) webhookUrlOption('serve', 'webhook-url', webhookUrl);
  return {
    port,
    host,
    allowRemoteWebhooks: options['allow-remote-webhooks'],
    faults,
    scenarios,
    ...(hangSeconds !== undefined ? { hangSeconds } : {}),
    ...(webhookUrl !== undefined ? { webhookUrl } : {}),
    variant,
  };
}

/** The warning for a bind address other machines can reach, or undefined on loopback. */
export function bindWarning(host: string): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  return `warning: listening on ${host}, reachable from other machines; anyone who reaches it can use the public demo credentials (--host 127.0.0.1 keeps it on this machine)`;
}

/** The warning for a --webhook-url off this machine: deliveries there are signed with the public demo secrets. */
export function webhookUrlWarning(url: string): string | undefined {
  if (isLoopbackHost(new URL(url).hostname)) return undefined;
  return `warning: --webhook-url ${url} is not on this machine: every demo merchant's webhooks, signed with the public demo secrets, are delivered there`;
}

function banner(
  { baseUrl, fixtures }: Awaited<ReturnType<typeof startSandbox>>,
  { faults, scenarios, webhookUrl }: ReturnType<typeof readSettings>,
): string {
  const { merchant, otherMerchant, productionCredentials } = fixtures;
  return (
    [
      `svc-conformance reference sandbox listening on ${baseUrl}`,
      '',
      'Demo credentials (sandbox only):',
      `  merchant A    X-API-KEY ${merchant.apiKey}   secret ${merchant.secretKey}   wallet ${merchant.walletId}`,
      `  merchant B    X-API-KEY ${otherMerchant.apiKey}   secret ${otherMerchant.secretKey}   wallet ${otherMerchant.walletId}`,
      `  production    X-API-KEY ${productionCredentials.apiKey}   wallet ${productionCredentials.walletId}   (known here only to be refused)`,
      `  payouts       ${fixtures.payouts.map((p) => `${p.payoutOrderId}`).join(' ')}`,
      `  faults        ${faults.length > 0 ? faults.join(', ') : 'none'}`,
      `  scenarios     ${scenarios.length > 0 ? scenarios.join(', ') : 'none'}`,
      `  webhooks      ${webhookUrl !== undefined ? `${webhookUrl} (merchants A and B; svc-conformance trigger EVENT fires one)` : 'none registered (--webhook-url URL)'}`,
      '',
    ].join('\n') + '\n'
  );
}
