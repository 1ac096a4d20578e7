// The wire (P-HTTP): other methods, the media type as Java, .NET and PHP clients write it,
// Content-Length in bytes, chunked request bodies, and a body that repeats a key.
import { quoted } from '../../common/http-chunks.js';
import { OPERATIONS } from '../../core/operations.js';
import { envelopeProblems, headerIsNot, isJsonContentType } from '../../core/predicates.js';
import { canonicalize } from '../../signer/canonical.js';
import { CheckFailure, CheckSkipped, expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import type { Exchange } from '../http.js';
import { operationOf, type OperationKey } from '../config.js';
import {
  contentLengthOf,
  postReadToClose,
  rawEvidence,
  twoOnOneConnection,
  type RawAnswer,
  type RawOptions,
  type RawRequest,
} from '../raw-http.js';
import { CREATE_ORDER_PATH, createOrder, expectOrderCreated, isSuccess, PAYOUT_STATUS_PATH, validOrder } from '../requests.js';
import { check, creating } from './shared-auth.js';
import { shown } from './shown.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Not OPTIONS: a question about the path (RFC 9110 §9.3.7) that CORS middleware rightly answers 204.
 *  Not HEAD: its answer has no body to hold an envelope. */
const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every operation path the target serves: the interface's two, and each configured extension (P-OPS). */
function operationPaths(ctx: CheckContext): Array<{ name: string; method: string; path: string }> {
  const paths: Array<{ name: string; method: string; path: string }> = [
    { name: OPERATIONS.createOrder.name, method: 'POST', path: CREATE_ORDER_PATH },
    { name: OPERATIONS.payoutStatus.name, method: 'POST', path: PAYOUT_STATUS_PATH },
  ];
  for (const key of ['orderStatus', 'orderCancel', 'balanceInquiry', 'transactionInitiation'] as const satisfies readonly OperationKey[]) {
    const location = operationOf(ctx.config, key);
    if (location !== undefined) paths.push({ name: OPERATIONS[key].name, method: location.method, path: location.path });
  }
  return paths;
}

/** HTTP-OTHER-METHODS (P-HTTP-1, P-ERR-1): signed, with a harmless body (an order_id never used), so only the method is wrong. */
async function otherMethods(ctx: CheckContext): Promise<void> {
  const cases = operationPaths(ctx).flatMap((op) =>
    METHODS.filter((m) => m !== op.method).map((method) => ({ ...op, method, own: op.method })),
  );
  await ctx.sweep(cases, async ({ name, path, method, own }) => {
    const exchange = await ctx.send({
      label: `${method} ${path} (${name} takes ${own})`,
      method,
      path,
      payload: { order_id: ctx.ids.orderId('METHOD') },
    });
    const why = `${method} on ${name}'s path (${own} ${path})`;
    expectStatus(exchange, [405, 404], `${why} must answer 405 or 404 (P-HTTP-1)`);
    const type = exchange.response.headers['content-type'];
    const problems = [
      ...(isJsonContentType(type) ? [] : [headerIsNot('Content-Type', type, 'application/json')]),
      ...envelopeProblems(exchange.response.json),
    ];
    const code = (exchange.response.json as { code?: unknown } | undefined)?.code;
    if (problems.length === 0 && code !== exchange.response.status)
      problems.push(`code is ${JSON.stringify(code)}, not the HTTP status ${exchange.response.status}`);
    expectThat(
      problems.length === 0,
      `${why}: the answer is not the JSON error envelope: ${problems.join('; ')} (P-HTTP-1, P-ERR-1)`,
      shown(exchange, `HTTP 405 or 404, Content-Type application/json, { "status": false, "code": <the status>, "message": "…" }`),
    );
  });
}

/** The media types of P-HTTP-2 that a server must take: a charset parameter, and other letter case. */
const MEDIA_TYPES = ['application/json; charset=utf-8', 'Application/JSON'] as const;

/** HTTP-MEDIA-TYPE (P-HTTP-2): a correctly signed Create Order labelled each way is created. */
async function mediaTypes(ctx: CheckContext): Promise<void> {
  await ctx.sweep(MEDIA_TYPES, async (contentType) => {
    const exchange = await ctx.send({
      label: `Create Order with Content-Type: ${contentType}`,
      path: CREATE_ORDER_PATH,
      payload: validOrder(ctx),
      contentType,
    });
    expectOrderCreated(
      exchange,
      `a Create Order with Content-Type "${contentType}" must be accepted: media types are case-insensitive and may carry parameters (P-HTTP-2)`,
    );
  });
}

/** HTTP-CHUNKED-BODY (P-HTTP-3, v1.3): a Create Order streamed as Go's and Java's clients stream bodies,
 *  in chunks with no Content-Length, is read as the same body sent with one. */
async function chunkedBody(ctx: CheckContext): Promise<void> {
  const label = 'Create Order streamed with Transfer-Encoding: chunked, no Content-Length';
  const exchange = await ctx.send({ label, path: CREATE_ORDER_PATH, payload: validOrder(ctx), chunked: true });
  expectOrderCreated(exchange, 'a Create Order whose body comes in chunks must be read as the same body with Content-Length (P-HTTP-3)');
}

/** HTTP-REPEATED-KEYS (P-HTTP-4). A 401 is not judged: a server verifying a re-canonicalized parse
 *  (P-SIGN-6) cannot match such a signature, so its parser is never seen deciding. */
async function repeatedKeys(ctx: CheckContext): Promise<void> {
  const order = validOrder(ctx);
  const second = ctx.ids.orderId('REPEAT');
  const text = canonicalize(order);
  const first = `"order_id":${JSON.stringify(order.order_id)}`;
  const raw = text.replace(first, `${first},"order_id":${JSON.stringify(second)}`);
  const exchange = await ctx.send({ label: 'Create Order whose body holds order_id twice', path: CREATE_ORDER_PATH, raw });
  if (exchange.response?.status === 401) {
    throw new CheckSkipped(
      'not judged: the body with a repeated key was refused at authentication (401), as a server that verifies a re-canonicalized parse does (P-SIGN-6); whether its parser would take the body cannot be seen',
    );
  }
  expectStatus(exchange, [400], 'a body in which an object repeats a key must be refused with 400 (P-HTTP-4)');
}

const rawFailure = (message: string, expected: string, evidence: Exchange) => new CheckFailure(message, shown(evidence, expected));

/** The Content-Length an answer said, checked against the bytes that came; undefined when none was sent. */
function lengthProblem(answer: RawAnswer): string | undefined {
  const said = answer.headers['content-length'];
  if (said === undefined) return undefined;
  const length = contentLengthOf(said);
  // A value that is no number is the target's text: shown whole or by its length (quoted), never cut.
  return length === answer.body.length
    ? undefined
    : `Content-Length says ${length !== undefined ? said : quoted(said)} but ${answer.body.length} bytes came before the connection closed`;
}

/** HTTP-CONTENT-LENGTH (P-HTTP-3): answers echoing a non-ASCII order_id read to the close, whatever
 *  Content-Length says; after a 400 the connection takes another request unless it said close. */
export async function contentLength(ctx: CheckContext, options: RawOptions = {}): Promise<void> {
  const orderId = `${ctx.ids.orderId('CL')}-Grüße-✓`;
  const requests: RawRequest[] = [
    {
      label: 'Create Order with a non-ASCII order_id, read to the close',
      path: CREATE_ORDER_PATH,
      body: canonicalize(validOrder(ctx, { order_id: orderId })),
    },
  ];
  const status = operationOf(ctx.config, 'orderStatus');
  if (status !== undefined && status.method === 'POST')
    requests.push({ label: 'Order Status of that order, read to the close', path: status.path, body: canonicalize({ order_id: orderId }) });
  let judgedNonAscii = 0;
  const unjudged: string[] = [];
  for (const request of requests) {
    const { answer, evidence, unjudged: why } = await postReadToClose(ctx, request, options);
    // The connection did not close and the answer was not yet whole: more bytes may have been on their way.
    if (why !== undefined) {
      unjudged.push(`${request.label}: ${why}`);
      continue;
    }
    if (answer === undefined)
      throw rawFailure(`${request.label}: no complete HTTP answer came before the connection closed`, 'an HTTP answer', evidence);
    const problem = lengthProblem(answer);
    expectThat(problem === undefined, `${request.label}: ${problem} (P-HTTP-3: Content-Length counts bytes, not characters)`, {
      expected: `Content-Length: ${answer.body.length}`,
      actual: `Content-Length: ${answer.headers['content-length']}`,
      exchange: evidence,
    });
    // Only bytes past ASCII can tell a count of characters from one of bytes.
    if (answer.headers['content-length'] !== undefined && answer.body.some((byte) => byte > 0x7f)) judgedNonAscii++;
  }

  const invalid = { label: 'Create Order with invalid JSON, on a kept-alive connection', path: CREATE_ORDER_PATH, body: '{"order_id":' };
  await usableAfter(ctx, invalid, options);
  // Refused at authentication, which may come before the body is read (P-AUTH-6): the body must not be left behind.
  const body = canonicalize(validOrder(ctx));
  await usableAfter(
    ctx,
    { label: 'Create Order signed wrong, on a kept-alive connection', path: CREATE_ORDER_PATH, body, signedWrong: true },
    options,
  );
  if (judgedNonAscii === 0) {
    const also = unjudged.length > 0 ? `; ${unjudged.join('; ')}` : '';
    throw new CheckSkipped(
      `not judged: no answer that said its Content-Length held non-ASCII text (the order_id was refused, or escaped as \\u), so a count of characters cannot be told from one of bytes${also}`,
    );
  }
}

/** After `broken`'s error answer on a kept-alive connection, the next request there is read as one of its own (P-HTTP-3). */
async function usableAfter(ctx: CheckContext, broken: RawRequest, options: RawOptions): Promise<void> {
  const next = {
    label: 'Create Order on the same connection, after the error',
    path: CREATE_ORDER_PATH,
    body: canonicalize(validOrder(ctx)),
  };
  const pair = await twoOnOneConnection(ctx, broken, next, options);
  if (pair.first === undefined) {
    // twoOnOneConnection gives no first answer without saying why.
    throw rawFailure(
      `${broken.label}: no complete HTTP answer (${pair.firstProblem}) (P-HTTP-3)`,
      'an error answer',
      rawEvidence(ctx, broken, undefined, pair.firstProblem),
    );
  }
  if (pair.second.unjudged !== undefined) {
    // The bytes were judged; whether the connection takes another request after an error cannot be told.
    throw new CheckSkipped(`not judged: whether a connection stays usable after an error answer: ${next.label}: ${pair.second.unjudged}`);
  }
  if (pair.sentSecond && pair.second.answer === undefined) {
    const closed = 'the connection closed without an answer, though the error before it did not say Connection: close';
    throw rawFailure(
      'after an error answer without Connection: close, the connection did not take another request (P-HTTP-3)',
      'an answer to the second request, or Connection: close on the error',
      rawEvidence(ctx, next, undefined, closed),
    );
  }
  const answer = pair.second.answer;
  if (answer === undefined || (answer.status >= 200 && answer.status < 300)) return;
  // Answered otherwise: the target's doing unless the same request alone is created.
  const alone = await createOrder(ctx, validOrder(ctx), 'Create Order alone, on a connection of its own');
  expectThat(
    !isSuccess(alone),
    `after the error answer to "${broken.label}", the next request there was answered HTTP ${answer.status}, though alone it is created: it was not read as a request of its own (P-HTTP-3)`,
    shown(rawEvidence(ctx, next, answer), 'the second request created, as it is alone'),
  );
}

export const wireChecks: Check[] = [
  check(
    'http-other-methods',
    'HTTP-OTHER-METHODS',
    'GET, PUT, PATCH and DELETE on every operation path answer 405 or 404 with the JSON error envelope',
    otherMethods,
  ),
  creating(
    'http-media-type',
    'HTTP-MEDIA-TYPE',
    'Create Order labelled "application/json; charset=utf-8" or "Application/JSON" is accepted',
    mediaTypes,
  ),
  creating(
    'http-content-length',
    'HTTP-CONTENT-LENGTH',
    'Content-Length of non-ASCII answers is their byte length; a connection stays usable after an error or is closed',
    (ctx) => contentLength(ctx),
  ),
  creating('http-chunked-body', 'HTTP-CHUNKED-BODY', 'a Create Order sent with Transfer-Encoding: chunked is created', chunkedBody),
  creating('http-repeated-keys', 'HTTP-REPEATED-KEYS', 'a body that repeats order_id is refused with 400', repeatedKeys),
];
