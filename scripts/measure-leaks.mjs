// Counts leaked forms of a secret in run's outputs against a hostile echoing target on loopback.
// Usage: node scripts/measure-leaks.mjs bin/svc-conformance.js (writes under /tmp/leak).
import { createServer } from 'node:http';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
const SECRET = 'sk_test_hostile_5eCr3t_0123456789', PASSWORD = 'hunter2-in-the-url', KEY = 'pk_test_hostile_0001';
const sigs = [];
const server = createServer((req, res) => { const s = String(req.headers['x-signature'] ?? ''); if (s) sigs.push(s); req.resume(); req.on('end', () => { res.writeHead(400, { 'content-type': 'application/json' }); res.end(JSON.stringify({ m: `sig ${s.toUpperCase()} hex ${Buffer.from(SECRET).toString('hex')}`, b: Buffer.from(SECRET).toString('base64'), a: `Basic ${Buffer.from(KEY + ':' + SECRET).toString('base64')}` })); }); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
writeFileSync('/tmp/leak-c.json', JSON.stringify({ baseUrl: `http://admin:${PASSWORD}@127.0.0.1:${port}`, environment: 'sandbox', merchant: { apiKey: KEY, secretKey: SECRET, walletId: 'W' } }));
rmSync('/tmp/leak/r', { recursive: true, force: true });
const { spawn } = await import('node:child_process');
const child = spawn(process.execPath, [process.argv[2], 'run', '--config', '/tmp/leak-c.json', '--only', 'AUTH-', '--seed', '7', '--report-dir', '/tmp/leak/r']);
let out = ''; child.stdout.on('data', (d) => (out += d)); child.stderr.on('data', (d) => (out += d));
await new Promise((r) => child.on('exit', r));
server.close();
const texts = { console: out, 'report.json': readFileSync('/tmp/leak/r/report.json', 'utf8'), 'junit.xml': readFileSync('/tmp/leak/r/junit.xml', 'utf8'), 'report.html': readFileSync('/tmp/leak/r/report.html', 'utf8') };
const forms = { hex: Buffer.from(SECRET).toString('hex'), base64: Buffer.from(SECRET).toString('base64').slice(0, 24), basic: Buffer.from(KEY + ':' + SECRET).toString('base64').slice(0, 24), password: PASSWORD };
let total = 0;
for (const [where, t] of Object.entries(texts)) { const l = t.toLowerCase(); const counts = Object.entries(forms).map(([n, f]) => [n, l.split(f.toLowerCase()).length - 1]); const sig = sigs.reduce((n, s) => n + l.split(s.toLowerCase()).length - 1, 0); counts.push(['signature', sig]); total += counts.reduce((n, [, c]) => n + c, 0); console.log(where, JSON.stringify(Object.fromEntries(counts))); }
console.log('total occurrences', total);
