import { decimalText, minorUnitOf } from '../schemas/amounts.js';
import type { Currency } from '../schemas/types.js';
import type { FaultName } from './faults.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** What the sandbox answers: the part of the Fetch API's Response its readers use, without Response's costly streams. */
export class SandboxResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: Headers;

  constructor(
    private readonly body: string,
    init: { status?: number; headers?: Record<string, string> } = {},
  ) {
    this.status = init.status ?? 200;
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = new Headers(init.headers);
  }

  text = (): Promise<string> => Promise.resolve(this.body);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Response.json() is typed: a test reads what it expects
  json = (): Promise<any> => this.text().then(JSON.parse);
  bytes = (): Buffer => Buffer.from(this.body, 'utf8');
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): SandboxResponse {
  return new SandboxResponse(JSON.stringify(body), { status, headers: { 'content-type': JSON_TYPE, ...headers } });
}

/** The general error envelope (P-ERR-1); the envelope faults are applied here, in one place, so each breaks exactly its rule. */
export function errorResponse(status: number, message: string, faults: ReadonlySet<FaultName>): SandboxResponse {
  const body: Record<string, unknown> = {
    status: faults.has('errors-status-as-text') ? 'false' : false,
    code: faults.has('errors-code-mismatch') ? 400 : faults.has('errors-code-as-text') ? String(status) : status,
    message: faults.has('errors-empty-message') ? '' : message,
  };
  return jsonResponse(status, body, faults.has('errors-text-plain') ? { 'content-type': 'text/plain; charset=utf-8' } : {});
}

/** The general success envelope (interface: Common response envelope). */
export function successResponse(data: unknown, message: string, status = 200): SandboxResponse {
  return jsonResponse(status, { status: true, code: status, message, data });
}

/** DD-MM-YYYY, UTC. */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}-${pad(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`;
}

/** DD-MM-YYYY hh:mm AM/PM, UTC (P-ORDER-3). */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  const hours = d.getUTCHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${formatDate(ms)} ${pad(hour12)}:${pad(d.getUTCMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Minor units as decimal text with the currency's decimals (two without one): 150000 → "1500.00"; 1500 JPY → "1500". */
export function minorToText(minor: number, currency?: Currency): string {
  return decimalText({ units: BigInt(minor), scale: currency === undefined ? 2 : minorUnitOf(currency) });
}
