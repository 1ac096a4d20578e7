import { webhookBuiltOrder } from '../../schemas/field-order.js';
import { authHeaders, parseCapturedRequest } from '../../signer/capture.js';
import { diagnose } from '../../signer/diagnose.js';
import { formatDiagnosis } from '../../signer/diagnose-report.js';
import { readBody, readText, UsageError, type Io } from '../io.js';
import { defineCommand, type ParsedOptions } from '../options.js';
import { secretOption } from './sign.js';

export const diagnoseCommand = defineCommand({
  name: 'diagnose',
  summary:
    "Says whether a received signature (of a request or a webhook delivery) is the profile's signature of a body and, if not, which mistake produced it.",
  usage: 'svc-conformance diagnose --secret S (--timestamp T --signature SIG [--file F] | --request F) [--json]',
  options: [
    { name: 'secret', value: 'S', description: 'secret key the server verifies with; defaults to $SVC_SECRET_KEY' },
    { name: 'timestamp', value: 'T', description: 'X-TIMESTAMP as sent' },
    { name: 'signature', value: 'SIG', description: 'X-SIGNATURE as received (hex, or whatever the client sent)' },
    { name: 'file', value: 'F', description: 'the body as sent (default: stdin)' },
    { name: 'request', value: 'F', description: 'a captured request instead: raw HTTP/1.1 text or a curl command ("-" for stdin)' },
    { name: 'api-key', value: 'K', description: 'X-API-KEY as sent, to spot a key and secret of different environments' },
    { name: 'json', description: 'print { "match", "variants", "candidates", "detail" }' },
    { name: 'show-expected', description: 'print the whole expected signature (shortened by default: output gets pasted into tickets)' },
  ],
  details: [
    'Exit status: 0 the signature matches, 1 it does not, 2 bad input.',
    'Flags given next to --request override what the capture says.',
  ],
  examples: [
    'svc-conformance diagnose --secret "$SVC_SECRET_KEY" --timestamp 1732147200 --signature 9c1e… --file body.json',
    'svc-conformance diagnose --secret "$SVC_SECRET_KEY" --request captured.http',
  ],
  async run(options, io) {
    const secret = secretOption(options.secret, io.env, 'diagnose');
    const input = await gatherInput(options, io);
    // A webhook delivery's body is canonical text: the order its sender built the event in is tried too.
    const builtOrder = webhookBuiltOrder(input.body);
    const result = diagnose({ ...input, secret, ...(builtOrder !== undefined ? { builtOrder } : {}) });
    if (!options['show-expected']) {
      // A whole valid signature next to its body and timestamp is a ready-to-send request.
      result.detail.expectedSignature = result.detail.expectedSignature.slice(0, 12) + '…';
    }
    io.stdout(options.json ? JSON.stringify(result, null, 2) + '\n' : formatDiagnosis(result));
    return result.match ? 0 : 1;
  },
});

async function gatherInput(
  options: ParsedOptions<(typeof diagnoseCommand)['options']>,
  io: Io,
): Promise<{ body: string; timestamp: string; signature: string; apiKey?: string }> {
  let body: string;
  let captured: { apiKey?: string; signature?: string; timestamp?: string } = {};
  if (options.request !== undefined) {
    const request = parseCapturedRequest(await readText(io, 'diagnose', '--request', options.request));
    captured = authHeaders(request);
    body = options.file !== undefined ? await readText(io, 'diagnose', '--file', options.file) : request.body;
  } else {
    body = await readBody(io, 'diagnose', options.file);
  }
  const timestamp = options.timestamp ?? captured.timestamp;
  const signature = options.signature ?? captured.signature;
  const from = options.request !== undefined ? ' (the captured request has no such header)' : '';
  if (timestamp === undefined) throw new UsageError(`diagnose: --timestamp T is required${from}`);
  if (signature === undefined) throw new UsageError(`diagnose: --signature SIG is required${from}`);
  const apiKey = options['api-key'] ?? captured.apiKey;
  return { body, timestamp, signature, ...(apiKey !== undefined ? { apiKey } : {}) };
}
