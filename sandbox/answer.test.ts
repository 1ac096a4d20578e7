// An Answer (the sandbox's own JSON envelopes) reads like the Response it replaces, and becomes the
// same Response where one leaves the app; an OperationError, which only becomes an answer, records
// no stack.
import { describe, expect, it } from 'vitest';
import { Answer, answerBody, asResponse } from './answer.js';
import { OperationError } from './context.js';
import { errorResponse, jsonResponse } from './envelope.js';

async function seen(response: Response | Answer) {
  const headers: Array<[string, string]> = [];
  response.headers.forEach((value, name) => headers.push([name, value]));
  return { status: response.status, ok: response.ok, headers, body: Buffer.from(await response.arrayBuffer()).toString('hex') };
}

describe('Answer', () => {
  const body = { status: true, code: 201, message: 'Order created: \u00e9\u20ac\ud83d\ude00', data: { a: [1, 2.5] } };

  it('reads, and converts to, what the same Response gives: status, sorted headers, UTF-8 bytes', async () => {
    const answer = jsonResponse(201, body, { Allow: 'POST', 'Retry-After': '1' });
    const response = new Response(JSON.stringify(body), {
      status: 201,
      headers: { 'retry-after': '1', allow: 'POST', 'content-type': 'application/json; charset=utf-8' },
    });
    const expected = await seen(response.clone());
    expect(await seen(answer)).toEqual(expected);
    expect(await seen(asResponse(answer))).toEqual(expected);
    expect(await answer.json()).toEqual(body);
    const written = await answerBody(answer);
    expect(Buffer.from(written.body).toString('hex')).toBe(expected.body);
    expect(Object.entries(written.headers)).toEqual([
      ['allow', 'POST'],
      ['content-type', 'application/json; charset=utf-8'],
      ['retry-after', '1'],
    ]);
  });

  it('is not ok outside 2xx, and a clone has headers of its own', async () => {
    const answer = errorResponse(404, 'payout transaction not found', new Set());
    expect(answer.ok).toBe(false);
    const copy = answer.clone();
    copy.headers.set('Allow', 'POST');
    expect(answer.headers.has('allow')).toBe(false);
    expect(await copy.text()).toBe('{"status":false,"code":404,"message":"payout transaction not found"}');
  });
});

describe('AnswerHeaders', () => {
  it('a header set on one answer is its own: the others built alike, before or after, do not get it', () => {
    const [first, second] = [jsonResponse(200, {}), jsonResponse(200, {})];
    first.headers.set('Retry-After', '5');
    first.headers.set('__proto__', 'x');
    const later = jsonResponse(200, {});
    expect([first.headers.get('retry-after'), first.headers.get('__proto__')]).toEqual(['5', 'x']);
    for (const other of [second, later]) {
      expect([other.headers.has('retry-after'), other.headers.get('__proto__'), other.headers.get('content-type')]).toEqual([
        false,
        null,
        'application/json; charset=utf-8',
      ]);
    }
  });
});

describe('OperationError', () => {
  it('records no stack frames, and leaves stack capture as it was for every other error', () => {
    const before = Error.stackTraceLimit;
    const error = new OperationError(429, 'slow down', { 'retry-after': '1' });
    expect(error.stack).toBe('OperationError: slow down');
    expect([error.status, error.message, error.headers]).toEqual([429, 'slow down', { 'retry-after': '1' }]);
    expect(error).toBeInstanceOf(Error);
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('other').stack).toContain('answer.test');
  });
});
