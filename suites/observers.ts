import type { Exchange } from '../core/exchange.js';
import { envelopeProblems, isJsonContentType } from '../core/predicates.js';
import type { Finding } from '../core/report.js';

/** Rules for every answer (P-ERR-1, P-ERR-2, P-ERR-3), checked on every exchange so a slip is caught where it happens. */
export function observe(exchange: Exchange): Finding[] {
  const response = exchange.response;
  if (response === undefined) return [];
  const findings: Finding[] = [];
  // Said only in a finding: most answers have none, and parsing the URL is most of the work here.
  const where = () => `${exchange.request.method} ${new URL(exchange.request.url).pathname} (${exchange.label})`;
  const type = response.headers['content-type'] ?? '';
  if (!isJsonContentType(type)) {
    findings.push({
      requirement: 'ERR-CONTENT-TYPE',
      message: `${where()} answered Content-Type ${type ? `"${type}"` : 'none'}, not application/json`,
    });
  }
  if (response.status >= 500) findings.push({ requirement: 'ERR-NO-5XX', message: `${where()} answered HTTP ${response.status}` });
  const body = response.json as Record<string, unknown> | undefined;
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  if (response.status >= 300) {
    const problems = envelopeProblems(response.json);
    if (problems.length > 0)
      findings.push({ requirement: 'ERR-ENVELOPE', message: `${where()} answered HTTP ${response.status} with ${problems.join('; ')}` });
  }
  if (isObject && 'code' in body && (typeof body.status === 'boolean' || body.status === 'success')) {
    // The general envelope carries code as an integer, the create-order envelope as its text.
    const code = body.code;
    const matches = typeof code === 'number' ? code === response.status : code === String(response.status);
    if (!matches && Number.isInteger(code) === (typeof body.status === 'boolean')) {
      findings.push({
        requirement: 'ERR-CODE-MATCHES-STATUS',
        message: `${where()} answered HTTP ${response.status} with code ${JSON.stringify(code)}`,
      });
    }
  }
  return findings;
}
