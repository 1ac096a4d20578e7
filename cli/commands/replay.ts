import { visible } from '../../common/visible.js';
import { canonicalize } from '../../signer/canonical.js';
import { SignerError } from '../../signer/errors.js';
import { jsonErrorPlace, loadConfig } from '../../suites/config.js';
import { TargetClient } from '../../suites/http.js';
import { readText, UsageError } from '../io.js';
import { defineCommand, oneOf } from '../options.js';

export const replayCommand = defineCommand({
  name: 'replay',
  summary: 'Resends a request from a report, freshly signed, and prints the answer.',
  usage: 'svc-conformance replay [--config F] --path P [--method M] [--body JSON | --file F] [--as merchant|otherMerchant]',
  options: [
    { name: 'config', value: 'F', description: 'P-CFG config file; SVC_* environment variables override it' },
    { name: 'path', value: 'P', description: 'operation path, e.g. /api/v3/pg/order/create', required: true },
    { name: 'method', value: 'M', description: 'POST (default) or GET' },
    { name: 'body', value: 'JSON', description: 'the body, sent as its canonical text' },
    { name: 'file', value: 'F', description: 'the body from a file instead' },
    { name: 'raw', description: 'send the body text exactly as given (for malformed bodies), signed as is' },
    { name: 'as', value: 'WHO', description: 'merchant (default) or otherMerchant, from the config' },
  ],
  details: ['Signatures are made afresh with the current time; the output never shows the secret or the signature.'],
  examples: [
    'svc-conformance replay --config sandbox.json --path /api/v3/banking/payment/status --body \'{"svc_wallet_id":"WAL-SBX-A-0001","debit_account_type":"svc_wallet","payout_order_id":"PO-FIXTURE-FAILED"}\'',
  ],
  async run(options, io) {
    const config = await loadConfig(options.config, io.env, io.cwd);
    const method = oneOf('replay', 'method', (options.method ?? 'POST').toUpperCase(), ['POST', 'GET']);
    const text = options.file !== undefined ? await readText(io, 'replay', '--file', options.file) : options.body;
    let payload: unknown;
    if (text !== undefined && !options.raw && text.trim() !== '') {
      try {
        payload = JSON.parse(text);
      } catch {
        throw new UsageError(`replay: the body is not JSON${jsonErrorPlace(text)}; pass --raw to send it as it is`);
      }
    }
    const who = options.as ?? 'merchant';
    const as = who === 'otherMerchant' ? config.otherMerchant : who === 'merchant' ? config.merchant : undefined;
    if (as === undefined) throw new UsageError(`replay: --as ${who} is not in the config (merchant or otherMerchant)`);

    const path = options.path;
    if (!path.startsWith('/') || path.startsWith('//') || /[\s#]/.test(path)) {
      throw new UsageError(
        `replay: --path ${JSON.stringify(path)} is not a path; give the operation's path from the report, e.g. /api/v3/pg/order/create`,
      );
    }
    if (payload !== undefined) {
      try {
        canonicalize(payload);
      } catch (error) {
        if (error instanceof SignerError) throw new UsageError(`replay: ${error.message.replace(/^canonicalize: /, 'the body: ')}`);
        throw error;
      }
    }
    const client = new TargetClient(config);
    try {
      const exchange = await client.send({
        label: 'replay',
        path,
        method,
        as,
        ...(options.raw && text !== undefined ? { raw: text } : payload !== undefined ? { payload } : {}),
      });
      if (exchange.error) throw new UsageError(`replay: ${exchange.error.message}`);
      const r = exchange.response;
      // Everything below comes from the target: shown with control and bidi characters escaped.
      io.stdout(`${exchange.request.method} ${visible(exchange.request.url)}\n`);
      io.stdout(
        `HTTP ${r.status}\n${Object.entries(r.headers)
          .map(([k, v]) => `${visible(k)}: ${visible(v)}`)
          .join('\n')}\n\n`,
      );
      io.stdout(visible(r.json !== undefined ? JSON.stringify(r.json, null, 2) : r.body, { keepNewlines: true }) + '\n');
      return 0;
    } finally {
      await client.close();
    }
  },
});
