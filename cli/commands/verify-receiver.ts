// `svc-conformance verify-receiver --url URL`: delivers genuine, redelivered and forged webhook
// events to a merchant's receiver and judges its answers by P-HOOK-6…8, with the same reports as run.
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { tlsProblemOf } from '../../core/tls.js';
import { CONFIRMS_STATUS, judgeReceiver, receiverCatalog } from '../../clients/receiver-judge.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B } from '../../sandbox/tenants.js';
import { loadConfig, toleranceOf } from '../../suites/config.js';
import { configFileOf } from '../config-file.js';
import { UsageError, type Io } from '../io.js';
import { defineCommand, webhookUrlOption } from '../options.js';
import { Reporting, reportOptions } from '../reporting.js';

export const verifyReceiverCommand = defineCommand({
  name: 'verify-receiver',
  summary: 'Delivers genuine, redelivered and forged webhook events to a receiver and judges its answers by P-HOOK-6…8.',
  usage: 'svc-conformance verify-receiver --url URL [--config F] [--report-dir D] [--strict] [--require-all] [--sign-key FILE]',
  options: [
    { name: 'url', value: 'URL', required: true, description: 'where the receiver listens, e.g. http://127.0.0.1:4020/webhooks' },
    {
      name: 'config',
      short: 'c',
      value: 'F',
      description:
        "a P-CFG config (default: ./svc-conformance.json if there is one): merchant.secretKey signs genuine events; otherMerchant and otherEnvironment sign forgeries (default: the embedded sandbox's demo merchants)",
    },
    ...reportOptions('verify-receiver'),
  ],
  details: [
    'Genuine events (payout and payment records, some holding non-ASCII text and HTML characters) must be answered 200 within 10 s;',
    "a forgery (no or a wrong signature, another merchant's or environment's secret, the body or timestamp changed after signing,",
    'a missing, malformed or 900 s old timestamp, a body that is not JSON) anything but 2xx; a redelivery 200 again.',
    "Ctrl-C or SIGTERM (exit 130), a closed terminal (SIGHUP, 129) or a closed output pipe (141): one line saying what was cleaned up. The kit's previous reports in the report folder (recognised by their content; files of other tools are left alone) are removed when the command starts: one that ends without its own leaves none that verify.",
    'Exit status: 0 conformant (no MUST broken; with --strict, no SHOULD either), 1 not conformant, 2 bad usage, nothing listens at URL, or inconclusive.',
  ],
  examples: [
    'svc-conformance verify-receiver --url http://127.0.0.1:4020/webhooks',
    'svc-conformance verify-receiver --strict --config acme.json --url https://hooks.acme.test/svc',
  ],
  async run(options, io) {
    const reporting = new Reporting('verify-receiver', options, io);
    const out = reporting.io;
    const url = webhookUrlOption('verify-receiver', 'url', options.url);
    const configFile = configFileOf('verify-receiver', options, out);
    const { keys, signer, environment } = await signingKeysOf(configFile, out);
    await reporting.prepare();
    await listening(url);
    out.stdout(
      `verify-receiver: delivering genuine, redelivered and forged events to ${url}, genuine ones signed with the secret of ${signer}\n`,
    );
    const startedAt = new Date();
    const judged = await judgeReceiver({
      url,
      ...keys,
      ...(out.clock !== undefined ? { clock: out.clock } : {}),
      onDelivery: (line) => out.stdout(`  ${line}\n`),
    });
    // P-HOOK-9 (confirming with a status query) shows only in a client's own requests: verify-client
    // --webhook-url judges it. It is not part of this command's catalog, so --require-all can pass.
    const report = reporting.judgement({
      results: judged.results.filter((r) => r.meta.requirement !== CONFIRMS_STATUS),
      catalog: receiverCatalog().filter((r) => r.id !== CONFIRMS_STATUS),
      target: { baseUrl: url, environment, embeddedSandbox: false },
      startedAt,
      rerunCommand: `svc-conformance verify-receiver${options.strict ? ' --strict' : ''}${configFile ? ` --config ${configFile}` : ''} --url ${url}`,
      catalogs: ['clients/receiver-catalog.json'],
      options: { url, signedBy: signer, toleranceSeconds: keys.toleranceSeconds },
    });
    return reporting.end({ ...report, receiver: { url, deliveries: judged.deliveries } });
  },
});

/** Whose secret signs genuine events: the config's merchant, else SVC_SECRET_KEY, else demo merchant A. */
async function signingKeysOf(configFile: string | undefined, io: Io) {
  if (configFile !== undefined) {
    const config = await loadConfig(configFile, io.env, io.cwd);
    const { merchant, otherMerchant, otherEnvironment, environment } = config;
    return {
      keys: { merchant, otherMerchant, otherEnvironment, toleranceSeconds: toleranceOf(config) },
      signer: `merchant ${merchant.apiKey} of ${configFile}${io.env.SVC_SECRET_KEY ? ' (its secret from SVC_SECRET_KEY)' : ''}`,
      environment,
    };
  }
  const secret = io.env.SVC_SECRET_KEY;
  return {
    keys: {
      merchant: { secretKey: secret || MERCHANT_A.secretKey },
      otherMerchant: { secretKey: MERCHANT_B.secretKey },
      otherEnvironment: { secretKey: MERCHANT_A_LIVE.secretKey },
      toleranceSeconds: 300,
    },
    signer: secret ? 'SVC_SECRET_KEY' : "the embedded sandbox's demo merchant A",
    environment: 'sandbox' as const,
  };
}

/** Resolves once the URL accepts a connection (for https, a TLS handshake deliveries would trust); exit 2 when not. */
export function listening(url: string, timeoutMs = 3_000): Promise<void> {
  const { hostname, port, protocol } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  const https = protocol === 'https:';
  return new Promise((resolvePromise, reject) => {
    const where = { host, port: Number(port || (https ? 443 : 80)), timeout: timeoutMs };
    const socket = https ? tlsConnect({ ...where, servername: /^[\d.:]+$/.test(host) ? undefined : host }) : connect(where);
    const fail = (why: string) => {
      socket.destroy();
      reject(new UsageError(`verify-receiver: nothing listens at ${url} (${why}); start the receiver first, or check the URL`));
    };
    socket.once(https ? 'secureConnect' : 'connect', () => {
      socket.destroy();
      resolvePromise();
    });
    socket.once('timeout', () => fail(`no connection within ${timeoutMs / 1000} s`));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') return fail('connection refused');
      if (error.code === 'ENOTFOUND') return fail(`no such host ${host}`);
      if (https) {
        socket.destroy();
        const why =
          tlsProblemOf(error) === 'untrusted-certificate' ? 'its TLS certificate is not trusted' : 'no TLS handshake: is the URL http?';
        return reject(new UsageError(`verify-receiver: ${url} answers, but ${why}`));
      }
      return fail(error.code ?? error.message.replace(/\s+/g, ' '));
    });
  });
}
