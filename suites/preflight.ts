import { request } from 'undici';
import { describeTransportError } from './http.js';

/**
 * Can the target be reached at all? Any HTTP answer, even a 404 or an HTML page, means yes; the
 * checks then judge it. A refused, unresolvable or silent target is one clear line instead of a
 * hundred identical failures.
 */
export async function preflight(baseUrl: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const response = await request(baseUrl, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await response.body.dump();
    return undefined;
  } catch (error) {
    return describeTransportError(error, baseUrl, timeoutMs).message;
  }
}
