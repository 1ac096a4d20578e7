import { request } from 'undici';
import { describeTransportError } from './evidence.js';

/**
 * Can the target be reached at all? Any HTTP answer, even a 404 or an HTML page, means yes; the
 * checks then judge it. A refused, unresolvable or silent target is one clear line instead of a
 * hundred identical failures. One deadline covers the whole exchange, and only a little of the
 * answer is read: a target that trickles bytes cannot hold the run.
 */
export async function preflight(baseUrl: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const response = await request(baseUrl, {
      method: 'GET',
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
    return undefined;
  } catch (error) {
    return describeTransportError(error, baseUrl, timeoutMs).message;
  }
}
