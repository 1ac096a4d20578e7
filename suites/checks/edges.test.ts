// The Edges checks against the reference sandbox: each passes on the default sandbox and on the
// variants v1.2 added (another method answered 404; long ids refused; debit at settlement), each fails,
// naming its requirement, under the fault that breaks its rule, and none needs a seed to find its edge.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { edgeSet } from '../../generators/edges.js';
import { FAULTS, type FaultName } from '../../sandbox/faults.js';
import type { TargetConfig } from '../config.js';
import type { SendOptions } from '../http.js';
import { CREATE_ORDER_PATH } from '../requests.js';
import { edgeChecks, longPayoutIdChecks } from './edges.js';
import { judge, type Server } from './made-up-server-test-support.js';
import { outcomes, runAgainst } from './wire-edges-test-support.js';

const ALL_PASSED = Object.fromEntries(edgeChecks.map((c) => [c.id, 'passed']));

describe('no false alarm against the sandbox', () => {
  it.each([
    ['the default variant', {}],
    ['another method answered 404', { otherMethod: 404 as const }],
    ['long ids refused', { longIds: 'refuse' as const }],
    [
      'debit at settlement, canonical verification, 200 on create',
      { debitAt: 'settlement' as const, verify: 'canonical' as const, createStatus: 200 as const },
    ],
  ])(
    '%s',
    async (_name, variant) => {
      const ended = await runAgainst(edgeChecks, { variant });
      expect(ended.filter((e) => e.outcome !== 'passed')).toEqual([]);
      expect(outcomes(ended)).toEqual(ALL_PASSED);
    },
    30_000,
  );
});

/** Each fault, and what the failure must say: caught for the reason the fault gives, not by accident. */
const FAULTS_HERE: Array<[FaultName, RegExp]> = [
  ['amount-zero-string-accepted', /order_amount "(0|0\.00|-0\.00)" is zero and must be refused/],
  ['amount-three-decimals-truncated', /Order Status answers "\d+\.\d\d0" "(KWD|BHD|OMR)"/],
  ['amount-large-int32', /99999999\.99 INR .*answers "14100654\.07"/],
  ['amount-float32', /16777217 JPY .*answers "16777216"/],
  ['dup-id-case-insensitive', /HTTP 409: the two ids were taken for one/],
  ['dup-id-truncated', /came back as 64 characters/],
  ['dup-id-truncated-255', /order_id of 256 characters came back as 255 characters/],
  ['errors-astral-500', /customer\.name = characters outside the BMP .* answered HTTP 500/],
  ['errors-line-separator-500', /U\+2028 .* answered HTTP 500/],
];

describe('each fault is caught by the check of its requirement', () => {
  it.each(FAULTS_HERE.map(([f, why]) => [f, FAULTS[f].requirement, why] as const))(
    '%s → %s',
    async (fault, requirement, why) => {
      const ended = await runAgainst(
        edgeChecks.filter((c) => c.requirement === requirement),
        { faults: [fault] },
      );
      expect(ended.map((e) => `${e.requirement} ${e.outcome}`)).toEqual([`${requirement} failed`]);
      expect(ended[0]!.why).toMatch(why);
    },
    30_000,
  );

  it('under long ids refused, the long id is refused before dup-id-truncated could cut it: conformant, so it passes', async () => {
    const ended = await runAgainst(
      edgeChecks.filter((c) => c.requirement === 'DUP-EXACT-IDS'),
      { variant: { longIds: 'refuse' }, faults: ['dup-id-truncated'] },
    );
    expect(ended.map((e) => e.outcome)).toEqual(['passed']);
  }, 30_000);
});

const withoutOperations = (config: TargetConfig): TargetConfig => ({
  ...config,
  profile: { ...config.profile, operations: { orderStatus: null, orderCancel: null, balanceInquiry: null, transactionInitiation: null } },
});

describe('without the extension operations', () => {
  it('what needs Order Status to read back is not judged, and says so; the rest still judges', async () => {
    const ended = await runAgainst(edgeChecks, {}, withoutOperations);
    expect(outcomes(ended)).toEqual({ ...ALL_PASSED, 'edges-amount-kept-exactly': 'skipped', 'edges-amount-large': 'skipped' });
    expect(ended.find((e) => e.check === 'edges-amount-large')?.why).toMatch(/^partly judged: .*orderStatus/);
  }, 30_000);

  it('an amount stored altered cannot be seen without a read-back: not judged, never passed', async () => {
    const ended = await runAgainst(
      edgeChecks.filter((c) => c.requirement === 'AMOUNT-LARGE'),
      { faults: ['amount-large-int32'] },
      withoutOperations,
    );
    expect(ended.map((e) => e.outcome)).toEqual(['skipped']);
  }, 30_000);
});

/**
 * A front before the sandbox that may answer a request itself (`refuse`) or rewrite an answer's JSON
 * (`rewrite`), as a gateway or a faulty server between the kit and the sandbox would. Its `edit`
 * points a run's config at it.
 */
async function front(options: {
  refuse?: (path: string, body: Record<string, unknown>) => boolean;
  rewrite?: (path: string, json: { data?: Record<string, unknown> }) => void;
}) {
  let upstream = '';
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      /* not JSON: forwarded as it is */
    }
    if (options.refuse?.(req.url ?? '', json)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: false, code: 400, message: 'refused by the front' }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v;
    const answer = await fetch(upstream + (req.url ?? ''), {
      method: req.method!,
      headers,
      ...(['GET', 'HEAD'].includes(req.method!) ? {} : { body }),
    });
    let text = await answer.text();
    if (options.rewrite && text.startsWith('{')) {
      const parsed = JSON.parse(text);
      options.rewrite(req.url ?? '', parsed);
      text = JSON.stringify(parsed);
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding'].includes(k)) out[k] = v;
    });
    res.writeHead(answer.status, { ...out, 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  };
  const server = createServer((req, res) => void forward(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    edit: (config: TargetConfig): TargetConfig => {
      upstream = config.baseUrl.replace(/\/+$/, '');
      return { ...config, baseUrl: url };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('DUP-EXACT-IDS judges each part on its own', () => {
  const exactIds = edgeChecks.filter((c) => c.requirement === 'DUP-EXACT-IDS');

  it('the case pair cannot be judged (its first order refused): the long ids are still judged, and a VARCHAR(255) cut still fails', async () => {
    const gate = await front({ refuse: (path, body) => path.endsWith('/order/create') && String(body.order_id).startsWith('AbC-') });
    try {
      const ended = await runAgainst(exactIds, { faults: ['dup-id-truncated-255'] }, gate.edit);
      expect(ended.map((e) => e.outcome)).toEqual(['failed']);
      expect(ended[0]!.why).toMatch(/came back as 255 characters/);
    } finally {
      await gate.close();
    }
  }, 30_000);

  it('with only the case pair unjudged and the rest conformant: passed (something was judged), not skipped', async () => {
    const gate = await front({ refuse: (path, body) => path.endsWith('/order/create') && String(body.order_id).startsWith('AbC-') });
    try {
      const ended = await runAgainst(exactIds, {}, gate.edit);
      expect(ended.map((e) => e.outcome)).toEqual(['passed']);
    } finally {
      await gate.close();
    }
  }, 30_000);

  it('a payout_order_id kept cut to 255 characters (Payout Status answers it cut) fails', async () => {
    const cut = await front({
      rewrite: (path, json) => {
        if (path.endsWith('/payment/status') && typeof json.data?.payout_order_id === 'string')
          json.data.payout_order_id = json.data.payout_order_id.slice(0, 255);
      },
    });
    try {
      const ended = await runAgainst(longPayoutIdChecks, {}, cut.edit);
      expect(ended.map((e) => e.outcome)).toEqual(['failed']);
      expect(ended[0]!.why).toMatch(/Payout Status of the payout_order_id of 256 characters answers payout_order_id of 255 characters/);
    } finally {
      await cut.close();
    }
  }, 30_000);
});

describe('the amount edges each check sends, to a made-up server that keeps every order', () => {
  type Json = Record<string, unknown>;
  const edgeCheck = (id: string) => edgeChecks.find((c) => c.id === id)!;
  /** Creates every order (201) and answers Order Status with its amount and currency, edited by `edit`. */
  const keeping = (edit: (record: Json) => void = () => {}): Server => {
    const orders = new Map<string, Json>();
    return (o) => {
      const body = o.payload as Json;
      if (o.path === CREATE_ORDER_PATH) {
        orders.set(String(body.order_id), body);
        return { status: 201, json: { status: 'success', code: '201', message: 'created', return_data: { svc_order_id: 'S' } } };
      }
      const order = orders.get(String(body.order_id))!;
      const record = { order_id: order.order_id, order_amount: order.order_amount, order_currency: order.order_currency };
      edit(record);
      return { status: 200, json: { status: true, code: 200, message: 'ok', data: record } };
    };
  };
  const createLabels = async (id: string, server: Server) => {
    const sent: SendOptions[] = [];
    const judged = await judge(edgeCheck(id), (o) => (sent.push(o), server(o)));
    return { judged, labels: sent.filter((o) => o.path === CREATE_ORDER_PATH).map((o) => o.label) };
  };
  const ofClass = (c: string) =>
    edgeSet()
      .amounts.filter((e) => e.class === c)
      .map((e) => `Create Order of ${e.label}`);

  it('AMOUNT-ZERO-REFUSED names every spelling a zero on the wire stands for', async () => {
    const { labels } = await createLabels('edges-amount-zero', () => 400);
    expect(labels).toContain('Create Order with order_amount 0, 0.0, 0.00');
  });

  it('AMOUNT-KEPT-EXACTLY sends the exact amounts only, and fails an Order Status with no amount', async () => {
    const { judged, labels } = await createLabels('edges-amount-kept-exactly', keeping());
    expect(judged.outcome).toBe('passed');
    expect(labels).toEqual(ofClass('exact'));
    const none = await judge(
      edgeCheck('edges-amount-kept-exactly'),
      keeping((r) => void (r.order_amount = null)),
    );
    expect(none.failure?.message).toMatch(/Order Status answers null "\w+", not the amount sent/);
  });

  it('AMOUNT-LARGE sends the large amounts only', async () => {
    const { judged, labels } = await createLabels('edges-amount-large', keeping());
    expect(judged.outcome).toBe('passed');
    expect(labels).toEqual(ofClass('large'));
  });
});
