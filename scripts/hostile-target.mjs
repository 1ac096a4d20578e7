// A hostile target on loopback, to measure how the kit copes (the figures in the hardening notes):
//   node scripts/hostile-target.mjs MODE PORT
// MODE: large (100 MiB bodies), endless (chunked, up to 4 GiB), rate-limited (429, Retry-After: 10),
// slow (every answer after 9 s), escapes (terminal escapes and bidi controls in every answer).
// It listens on 127.0.0.1 only and exits by itself after 10 minutes.
import { createServer } from 'node:http';

const [mode, port] = [process.argv[2], Number(process.argv[3] ?? 0)];
const MIB = 1 << 20;
const block = Buffer.alloc(MIB, 'z');

function stream(res, mib, sized) {
  res.writeHead(200, { 'content-type': 'application/json', ...(sized ? { 'content-length': String(mib * MIB) } : {}) });
  let sent = 0;
  const pump = () => {
    while (sent < mib) {
      sent += 1;
      if (!res.write(block)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => (sent = Infinity));
  pump();
}

const answers = {
  large: (res) => stream(res, 100, true),
  endless: (res) => stream(res, 4096, false),
  'rate-limited': (res) =>
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '10' }).end('{"code":429,"message":"slow down"}'),
  slow: (res) => setTimeout(() => res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":400,"message":"no"}'), 9_000),
  escapes: (res) =>
    res
      .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
      .end('refused \u001b]0;pwned\u0007\u001b[2J\u202eevil\u202c\u009b31m'),
};
if (!(mode in answers)) {
  console.error(`usage: node scripts/hostile-target.mjs ${Object.keys(answers).join('|')} PORT`);
  process.exit(2);
}
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => answers[mode](res));
});
server.listen(port, '127.0.0.1', () => console.log(`hostile target (${mode}) on http://127.0.0.1:${server.address().port}`));
setTimeout(() => process.exit(0), 600_000).unref();
