import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SignerError } from '../../signer/errors.js';
import { signPayload } from '../../signer/sign.js';
import { jsonErrorPlace } from '../../suites/config.js';
import { readBody, UsageError } from '../io.js';
import { defineCommand } from '../options.js';

export const signCommand = defineCommand({
  name: 'sign',
  summary: "Prints the profile's signature (P-SIGN-2) of a JSON body: HMAC-SHA256 of canonical text + timestamp.",
  usage: 'svc-conformance sign --secret S --timestamp T [--file F] [--json]',
  options: [
    { name: 'secret', value: 'S', description: 'secret key (sk_test_…); defaults to $SVC_SECRET_KEY' },
    { name: 'timestamp', value: 'T', description: 'UNIX seconds, the X-TIMESTAMP value', required: true },
    { name: 'file', value: 'F', description: 'body file (default: stdin); an empty file signs a request without a body' },
    { name: 'json', description: 'print { "canonical", "message", "signature" }' },
    { name: 'body-out', value: 'F', description: 'also write the canonical body, the exact bytes to send, to F' },
  ],
  details: ['Send the canonical text as the body, byte for byte (P-SIGN-3): `--json` prints it.'],
  examples: [
    'svc-conformance sign --secret "$SVC_SECRET_KEY" --timestamp "$(date +%s)" --file order.json --body-out body.json',
    'echo \'{"order_id":"A-1"}\' | svc-conformance sign --timestamp 1732147200 --json',
  ],
  async run(options, io) {
    const secret = secretOption(options.secret, io.env, 'sign');
    const timestamp = timestampOption(options.timestamp);
    const text = await readBody(io, 'sign', options.file);
    let payload: unknown;
    if (text.trim() !== '') {
      try {
        payload = JSON.parse(text);
      } catch {
        const where = options.file || 'stdin';
        throw new UsageError(`sign: the body in ${where} is not JSON${jsonErrorPlace(text)}; sign signs JSON bodies only`);
      }
    }
    let signed;
    try {
      signed = signPayload({ payload, timestamp, secret });
    } catch (error) {
      if (error instanceof SignerError) throw new UsageError(`sign: ${error.message.replace(/^canonicalize: /, '')}`);
      throw error;
    }
    if (options['body-out'] !== undefined)
      await writeFile(resolve(io.cwd, options['body-out']), signed.canonical).catch((error: Error) => {
        throw new UsageError(`sign: cannot write --body-out ${options['body-out']}: ${error.message}`);
      });
    io.stdout(options.json ? JSON.stringify(signed) + '\n' : signed.signature + '\n');
    return 0;
  },
});

export function secretOption(value: string | undefined, env: Record<string, string | undefined>, command: string): string {
  const secret = value ?? env.SVC_SECRET_KEY;
  if (!secret) throw new UsageError(`${command}: no secret key: pass --secret S or set SVC_SECRET_KEY`);
  return secret;
}

function timestampOption(text: string): string {
  if (/^\d{13,}$/.test(text)) {
    throw new UsageError(`sign: --timestamp ${text} looks like milliseconds; X-TIMESTAMP is whole seconds (e.g. "$(date +%s)")`);
  }
  if (!/^\d+$/.test(text)) {
    throw new UsageError(`sign: --timestamp ${JSON.stringify(text)} is not whole UNIX seconds; use e.g. --timestamp "$(date +%s)"`);
  }
  return text;
}
