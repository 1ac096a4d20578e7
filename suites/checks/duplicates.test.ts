// DUP-CONCURRENT's evidence, against the reference sandbox with its duplicate race: what a person
// reads is the race, not the warm-up reads that opened its connections. Then each condition of the
// duplicate checks broken alone, against made-up servers.
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../core/clock.js';
import { startSandbox } from '../../sandbox/index.js';
import { executeCheck, newMeta } from '../check-context.js';
import { ConformanceRun } from '../run.js';
import { duplicateChecks } from './duplicates.js';
import { judge, verdict, type Reply, type Server } from './made-up-server-test-support.js';
import { CREATE_ORDER_PATH } from '../requests.js';

const open: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

describe('DUP-CONCURRENT', () => {
  it('shows only the concurrent creates as evidence, the failing one first and the rest as sent', async () => {
    const sandbox = await startSandbox({ port: 0, faults: ['dup-race'] });
    open.push(() => sandbox.close());
    const check = duplicateChecks.find((c) => c.requirement === 'DUP-CONCURRENT')!;
    const run = await ConformanceRun.open({
      target: { config: structuredClone(sandbox.config) },
      sections: [],
      clock: systemClock,
      seed: 7,
      runs: 1,
      runNumber: 1,
      timeoutMs: 5_000,
    });
    const meta = newMeta(check);
    try {
      expect(await executeCheck(check, run.state, meta, 0)).toBe('failed');
    } finally {
      await run.close();
    }
    const labels = meta.evidence.map((x) => x.label);
    expect(labels.filter((l) => !/^concurrent create \d+ of 8, one order_id$/.test(l))).toEqual([]);
    const numbers = labels.map((l) => Number(/create (\d+)/.exec(l)![1]));
    expect(numbers.slice(1)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].filter((i) => i !== numbers[0]));
  });
});

const byRequirement = (requirement: string) => duplicateChecks.find((c) => c.requirement === requirement)!;
const created = (svcOrderId: string): Reply => ({
  status: 201,
  json: { status: 'success', code: '201', message: 'created', return_data: { svc_order_id: svcOrderId } },
});

describe('DUP-CONCURRENT: exactly one of the 8 creates succeeds, and the 7 others answer 409', () => {
  /** A server whose creates answer these, in the order they arrive; its Payout Status (the warm-up reads) answers 404. */
  const creates = (replies: readonly Reply[]): Server => {
    let next = 0;
    return (options) => (options.path === CREATE_ORDER_PATH ? replies[next++]! : 404);
  };
  const times = (n: number, reply: Reply): Reply[] => Array.from({ length: n }, () => reply);

  it.each([
    ['one 201 and seven 409', 'passed', [created('S1'), ...times(7, 409)]],
    ['one 201 and seven 500 (the unique index caught the race, its error unhandled)', 'failed', [created('S1'), ...times(7, 500)]],
    ['one 201, six 409 and one 500', 'failed', [created('S1'), ...times(6, 409), 500]],
    ['no 201: one 500 and seven 409', 'failed', [500, ...times(7, 409)]],
    ['two 201 and six 409', 'failed', [created('S1'), created('S2'), ...times(6, 409)]],
    ['eight 201', 'failed', times(8, created('S1'))],
  ] as const)('%s: %s', async (_, outcome, replies) => {
    expect(await verdict(byRequirement('DUP-CONCURRENT'), creates(replies))).toBe(outcome);
  });

  it('shows first the answer that is neither, else the second success', async () => {
    const labelOf = async (replies: readonly Reply[]) =>
      (await judge(byRequirement('DUP-CONCURRENT'), creates(replies))).failure?.details.exchange?.response?.status;
    expect(await labelOf([created('S1'), ...times(6, 409), 500])).toBe(500);
    expect(await labelOf([created('S1'), 409, created('S2'), ...times(5, 409)])).toBe(201);
  });
});

describe('DUP-FIRST-UNCHANGED: the first order keeps its amount, currency and svc_order_id', () => {
  /** The first create answers 201, the duplicate 409, and Order Status this record. */
  const withRecord = (record: Record<string, unknown>): Server => {
    let creates = 0;
    return (options) => {
      if (options.path === CREATE_ORDER_PATH) return creates++ === 0 ? created('S1') : 409;
      return { status: 200, json: { status: true, code: 200, message: 'ok', data: record } };
    };
  };
  const first = { order_amount: '120.50', order_currency: 'INR', svc_order_id: 'S1' };

  it.each([
    ['unchanged', 'passed', first],
    ['unchanged, the amount as a number', 'passed', { ...first, order_amount: 120.5 }],
    ['with the duplicate amount', 'failed', { ...first, order_amount: '999.99' }],
    ['with no amount', 'failed', { ...first, order_amount: null }],
    ['in another currency', 'failed', { ...first, order_currency: 'USD' }],
    ['under another svc_order_id', 'failed', { ...first, svc_order_id: 'S2' }],
  ])('an Order Status %s: %s', async (_, outcome, record) => {
    expect(await verdict(byRequirement('DUP-FIRST-UNCHANGED'), withRecord(record))).toBe(outcome);
  });
});

describe('the duplicates sent: well-formed orders, each field filled', () => {
  /** Refuses 400 any order with an empty text field or an e-mail without "@" (stricter than the schema,
   *  as a deployment may be), else 409 for a used order_id and 201 for a new one. */
  const strict = (): Server => {
    const used = new Set<string>();
    const empty = (value: unknown): boolean =>
      value === '' || (typeof value === 'object' && value !== null && Object.values(value).some(empty));
    return (options) => {
      if (options.path !== CREATE_ORDER_PATH) return 404;
      const body = options.payload as { order_id: unknown; customer: { email: string } };
      if (empty(body) || !body.customer.email.includes('@')) return 400;
      const id = String(body.order_id);
      if (used.has(id)) return 409;
      used.add(id);
      return created(`S-${id}`);
    };
  };

  it('DUP-SEQUENTIAL passes a server that validates every field before it looks up the order_id', async () => {
    expect(await verdict(byRequirement('DUP-SEQUENTIAL'), strict())).toBe('passed');
  });

  it('DUP-CONCURRENT sends creates that differ in their order_note, numbered as their labels are', async () => {
    const sent: Array<{ label: string; note: unknown }> = [];
    const server = strict();
    await judge(byRequirement('DUP-CONCURRENT'), (options) => {
      if (options.path === CREATE_ORDER_PATH)
        sent.push({ label: options.label, note: (options.payload as { order_note?: unknown }).order_note });
      return server(options);
    });
    expect(sent).toHaveLength(8);
    expect(new Set(sent.map((s) => s.note)).size).toBe(8);
    for (const { label, note } of sent) expect(note).toMatch(new RegExp(`^concurrent attempt ${/create (\d+)/.exec(label)![1]} `));
  });
});
