/** What a failed TLS connection says about the server: OpenSSL's own text tells no one what to do, so each
 * caller turns this into a line that does. */
export type TlsProblem = 'untrusted-certificate' | 'not-tls';

export function tlsProblemOf(error: unknown): TlsProblem | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const message = (error as { message?: unknown }).message;
  const text = `${errorCodeOf(error) ?? ''} ${typeof message === 'string' ? message : ''}`;
  if (/certificate|CERT_|self.signed/i.test(text)) return 'untrusted-certificate';
  // A plain-HTTP server answers the TLS hello with "HTTP/1.1 400…", which OpenSSL reads as a record of an unknown version.
  if (/ERR_SSL_|SSL routines|wrong version number/i.test(text)) return 'not-tls';
  return undefined;
}

/** The error's own code, or its cause's (undici wraps Node's socket errors). */
export function errorCodeOf(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' ? code : undefined;
}
