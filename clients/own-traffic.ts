// Which recorded requests are the client's own (verify-client gives it keys made for the run); anything
// else reaching the recording sandbox is no evidence for or against it: counted and said, never judged.
import { jsonOf } from '../core/json-of.js';
import { secretFinder } from '../common/redact.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { MERCHANTS } from '../sandbox/tenants.js';
import { diagnose } from '../signer/diagnose.js';
import { hmacSha256Hex } from '../signer/sign.js';
import { field, headerOf, safeDecode, withoutByteOrderMark } from './traffic.js';

/** Requests with no API key whose signature is explained with diagnose at most: the rest are only compared plainly. */
const MAX_DIAGNOSED = 20;

interface OwnTraffic {
  own: RecordedExchange[];
  foreign: RecordedExchange[];
}

/** A request is the client's when it carries the run's API key, is signed with or carries the run's secret
 * (so one that forgot X-API-KEY still fails CLIENT-HEADERS), or opens a checkout page of the client's order. */
export function ownTraffic(exchanges: readonly RecordedExchange[], merchant: { apiKey: string; secretKey: string }): OwnTraffic {
  const holdsSecret = secretFinder([merchant.secretKey]);
  let diagnosed = 0;
  const signedWithSecret = (x: RecordedExchange, hasKey: boolean): boolean => {
    const timestamp = headerOf(x, 'x-timestamp');
    const signature = headerOf(x, 'x-signature');
    if (timestamp === undefined || signature === undefined) return false;
    const text = withoutByteOrderMark(x.body);
    if ([x.body, text].some((body) => hmacSha256Hex(merchant.secretKey, body + timestamp) === signature)) return true;
    // Another merchant's key says whose the request is; with none, a known signing mistake still shows the secret.
    if (hasKey || diagnosed >= MAX_DIAGNOSED) return false;
    diagnosed++;
    try {
      return diagnose({ body: text, timestamp, signature, secret: merchant.secretKey }).variants.length > 0;
    } catch {
      return false; // a timestamp diagnose cannot read
    }
  };
  const isOwnRequest = (x: RecordedExchange): boolean => {
    const key = headerOf(x, 'x-api-key') ?? headerOf(x, 'x-client-id');
    if (key === merchant.apiKey) return true;
    return (
      signedWithSecret(x, key !== undefined && key !== '') ||
      holdsSecret(x.body) ||
      holdsSecret(x.path) ||
      x.headers.some(([, value]) => holdsSecret(value))
    );
  };

  const own: RecordedExchange[] = [];
  const foreign: RecordedExchange[] = [];
  const pages: RecordedExchange[] = [];
  for (const x of exchanges) {
    if (x.path.startsWith('/checkout/')) pages.push(x);
    else (isOwnRequest(x) ? own : foreign).push(x);
  }
  // The orders the client created, by the service's id: their checkout pages are its customer's.
  const ordersOfClient = new Set(
    own
      .map((x) => field((jsonOf(x.responseBody) as { return_data?: unknown } | null | undefined)?.return_data, 'svc_order_id'))
      .filter((id) => id !== undefined),
  );
  for (const page of pages) {
    const svcOrderId = safeDecode(page.path.slice('/checkout/'.length).split(/[/?]/)[0]!);
    (ordersOfClient.has(svcOrderId) || isOwnRequest(page) ? own : foreign).push(page);
  }
  return { own, foreign };
}

/** The report's line about foreign requests, or undefined when there were none. */
export function foreignNote(foreign: readonly RecordedExchange[]): string | undefined {
  if (foreign.length === 0) return undefined;
  const one = foreign.length === 1;
  const demoKeys = new Set(MERCHANTS.map((m) => m.apiKey));
  const demo = foreign.filter((x) => demoKeys.has(headerOf(x, 'x-api-key') ?? headerOf(x, 'x-client-id') ?? '')).length;
  const why =
    demo === 0
      ? ''
      : `; ${one ? 'it carries' : demo === foreign.length ? 'they carry' : `${demo} of them carry`} a demo merchant's API key, which is public: a client must use SVC_API_KEY and SVC_SECRET_KEY, new for every run`;
  return `${foreign.length} request${one ? '' : 's'} not from the client (neither with the API key of this run nor signed with its secret) ${one ? 'was' : 'were'} not judged${why}`;
}
