// Counts how often a secret (in its other forms), a URL password and the signatures sent appear in
// what `run` prints and writes, against a loopback target that echoes them back in every answer.
// Usage: node scripts/measure-leaks.mjs [path/to/bin/svc-conformance.js]   (default: this checkout's)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = process.argv[2] ?? fileURLToPath(new URL('../bin/svc-conformance.js', import.meta.url));
const SECRET = 'sk_test_hostile_5eCr3t_0123456789';
const PASSWORD = 'hunter2-in-the-url';
const KEY = 'pk_test_hostile_0001';
const base64 = (text) => Buffer.from(text).toString('base64');

const signatures = [];
const server = createServer((req, res) => {
  const signature = String(req.headers['x-signature'] ?? '');
  if (signature) signatures.push(signature);
  req.resume();
  req.on('end', () => {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        message: `signature ${signature.toUpperCase()}, key hex ${Buffer.from(SECRET).toString('hex')}`,
        key: base64(SECRET),
        authorization: `Basic ${base64(`${KEY}:${SECRET}`)}`,
      }),
    );
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const dir = mkdtempSync(join(tmpdir(), 'svc-leaks-'));
const config = join(dir, 'target.json');
writeFileSync(
  config,
  JSON.stringify({
    baseUrl: `http://admin:${PASSWORD}@127.0.0.1:${server.address().port}`,
    environment: 'sandbox',
    merchant: { apiKey: KEY, secretKey: SECRET, walletId: 'WAL-1' },
  }),
);
const reports = join(dir, 'reports');
const child = spawn(process.execPath, [bin, 'run', '--config', config, '--only', 'AUTH-', '--seed', '7', '--report-dir', reports]);
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));
await new Promise((resolve) => child.on('exit', resolve));
server.close();

const forms = {
  hex: Buffer.from(SECRET).toString('hex'),
  base64: base64(SECRET).slice(0, 24),
  basic: base64(`${KEY}:${SECRET}`).slice(0, 24),
  password: PASSWORD,
};
const count = (text, form) => text.toLowerCase().split(form.toLowerCase()).length - 1;
let total = 0;
for (const [where, text] of Object.entries({
  console: output,
  'report.json': readFileSync(join(reports, 'report.json'), 'utf8'),
  'junit.xml': readFileSync(join(reports, 'junit.xml'), 'utf8'),
  'report.html': readFileSync(join(reports, 'report.html'), 'utf8'),
})) {
  const counts = Object.fromEntries(Object.entries(forms).map(([name, form]) => [name, count(text, form)]));
  counts.signature = signatures.reduce((n, signature) => n + count(text, signature), 0);
  total += Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(where.padEnd(12), JSON.stringify(counts));
}
console.log(`total occurrences: ${total}`);
