// The race checks (P-OPS-5, P-OPS-1) and their shared parts: how one winner is judged over answers a
// made-up server gives, and what the races send, against the reference sandbox with one answer rewritten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckFailure } from '../check.js';
import { editedAnswer, sandboxTarget, withAnswers, type SandboxTarget } from '../check-test-support.js';
import type { Exchange, SendOptions } from '../http.js';
import { exchangeOf, madeUpConfig, madeUpContext, type Reply } from './made-up-server-test-support.js';
import { expectOneWinner, raceChecks, warmConnections } from './races.js';

type Json = Record<string, unknown>;
const config = madeUpConfig();
const answers = (replies: Reply[]): Exchange[] =>
  replies.map((reply, i) => exchangeOf(config, { label: `concurrent ${i + 1}`, path: '/x' }, reply));
const failureOf = (run: () => unknown): CheckFailure => {
  try {
    run();
  } catch (error) {
    if (error instanceof CheckFailure) return error;
    throw error;
  }
  throw new Error('expected a failure');
};

describe('expectOneWinner', () => {
  it('fails a race where one request got no answer, showing that one and saying it got no answer', () => {
    const exchanges = answers([200, 409, 'no answer', 409]);
    const failure = failureOf(() => expectOneWinner(exchanges, 409, 'creates', 'P-DUP-2'));
    expect(failure.message).toBe('of 4 concurrent creates, 1 succeeded and 2 answered 409 (P-DUP-2)');
    expect(failure.details.exchange).toBe(exchanges[2]);
    expect(failure.details.actual).toBe('statuses 200, 409, no answer, 409');
  });

  it('keeps every answer as evidence only when asked to', () => {
    const exchanges = answers([200, 200]);
    expect(failureOf(() => expectOneWinner(exchanges, 409, 'creates', 'P-DUP-2')).details.exchanges).toBeUndefined();
    expect(failureOf(() => expectOneWinner(exchanges, 409, 'creates', 'P-DUP-2', true)).details.exchanges).toEqual(exchanges);
  });
});

describe('warmConnections', () => {
  it('reads the wallet it is given', async () => {
    const sent: SendOptions[] = [];
    await warmConnections(
      madeUpContext(config, (o) => (sent.push(o), 404)),
      2,
      'W-OTHER',
    );
    expect(sent.map((o) => (o.payload as Json).svc_wallet_id)).toEqual(['W-OTHER', 'W-OTHER']);
  });
});

describe('the races against the sandbox', () => {
  let target: SandboxTarget;
  beforeAll(async () => {
    target = await sandboxTarget();
  });
  afterAll(() => target.close());
  const race = (id: string) => raceChecks.find((c) => c.id === id)!;

  it('OPS-INITIATE-CONCURRENT sends initiations that differ in their beneficiary name, numbered as their labels', async () => {
    const sent: Array<{ label: string; beneficiary: Json }> = [];
    const recorded = withAnswers(race('ops-initiate-concurrent'), (exchange, options) => {
      if (/^concurrent initiation /.test(options.label) && !/\(try/.test(options.label))
        sent.push({ label: options.label, beneficiary: (options.payload as Json).beneficiary as Json });
      return exchange;
    });
    expect((await target.run(recorded)).outcome).toBe('passed');
    expect(sent).toHaveLength(8);
    expect(new Set(sent.map((s) => s.beneficiary.name)).size).toBe(8);
    for (const { label, beneficiary } of sent) {
      expect(beneficiary.name).toMatch(new RegExp(`^Kiran Desai ${/initiation (\d+)/.exec(label)![1]} `));
      expect(Object.keys(beneficiary).length).toBeGreaterThan(1);
    }
  });

  it('OPS-CANCEL-CONCURRENT fails a winning cancel that answers the order still UN_PAID', async () => {
    const unpaid = withAnswers(race('ops-cancel-concurrent'), (exchange, options) =>
      /^concurrent cancel /.test(options.label) && exchange.response?.status === 200
        ? editedAnswer(exchange, (json) => void ((json.data as Json).order_status = 'UN_PAID'))
        : exchange,
    );
    const { outcome, meta } = await target.run(unpaid);
    expect(outcome).toBe('failed');
    expect(meta.failure?.message).toMatch(/the cancel that succeeded answered order_status "UN_PAID", not CANCELLED/);
  });
});
