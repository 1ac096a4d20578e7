import { describeTransportError } from './evidence.js';

/** Any HTTP answer means reachable; a refused or silent target is one clear line instead of a hundred
 *  failures. One deadline covers the exchange and little is read, so a trickling target cannot hold it. */
export async function preflight(baseUrl: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const { request } = await import('undici');
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
