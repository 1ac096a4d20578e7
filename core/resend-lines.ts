// The lines that send a failed request or delivery again through the kit's own commands: `replay`
// (freshly signed) and `trigger` (the target sends the event once more, to a receiver started first).
import { createdIdOf } from './created-id.js';
import type { Exchange } from './exchange.js';
import { freshWord, shellQuote } from './reproduce.js';

/** The path and query of the request, which replay resends against the configured baseUrl. */
export function pathOf(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** A `replay` command that resends the same request freshly signed, so a failure can be seen again after
 * the recorded timestamp has left the server's window. */
export function replayLine(exchange: Exchange, configHint = 'CONFIG.json'): string {
  const { method, url, body } = exchange.request;
  const signing = exchange.signing;
  const words = [
    'svc-conformance replay',
    `--config ${shellQuote(configHint)}`,
    `--method ${shellQuote(method)}`,
    `--path ${shellQuote(pathOf(url))}`,
  ];
  if (signing?.secret === 'otherMerchant') words.push('--as otherMerchant');
  if (body !== '') {
    // A record's id sent again is a duplicate (409): the replay creates under a fresh one, unless the 409 is what failed.
    const id = createdIdOf(body);
    words.push(
      `--body ${id !== undefined && exchange.response?.status !== 409 ? freshWord(body, id, '"$(date +%s)$RANDOM"') : shellQuote(body)}`,
    );
  }
  return words.join(' ');
}

/** Where a trigger line delivers: a receiver the reader starts on this machine first (the kit's closed with the run). */
export const TRIGGER_RECEIVER = { port: 4020, url: 'http://127.0.0.1:4020/webhooks' } as const;

/** node, not netcat: nc's listen syntax differs between versions, and it never answers, so the target would deliver again and again. */
export const RECEIVER_COMMAND =
  `node -e 'require("http").createServer((q, s) => { let b = ""; q.on("data", (c) => (b += c)).on("end", () => { console.log(q.method, q.url, q.headers, b); s.end("ok"); }); })` +
  `.listen(${TRIGGER_RECEIVER.port}, "127.0.0.1")'`;

/** A `trigger` command that makes the target deliver a failed event again, to a receiver the reader starts first. */
export function triggerLine(event: string | undefined, configHint = 'CONFIG.json'): string {
  return [
    '# First, in another terminal, a receiver that prints each delivery as it comes (method, headers, body) and answers 200:',
    `# ${RECEIVER_COMMAND}`,
    '# (or point --to at a receiver of your own).',
    `svc-conformance trigger ${event === undefined ? 'EVENT' : shellQuote(event)} --config ${shellQuote(configHint)} --to ${TRIGGER_RECEIVER.url}`,
  ].join('\n');
}
