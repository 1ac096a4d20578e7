// Test support for the sandbox's own tests: signed standard Requests for `app.handle`, in-process.
import { createHmac } from 'node:crypto';
import { canonicalize } from '../signer/canonical.js';
import type { SandboxApp } from './context.js';
import type { FaultName } from './faults.js';
import { createSandbox } from './index.js';
import type { SandboxOptions } from './options.js';
import { MERCHANT_A, type Merchant } from './tenants.js';

export const ORIGIN = 'http://127.0.0.1:4010';
/** A fixed clock for tests: 2026-11-21 10:00:00 UTC. */
export const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);

export interface Call {
  path: string;
  /** A JSON payload, signed canonically; or `raw` text, signed as is (P-ERR-4 malformed bodies). */
  payload?: unknown;
  raw?: string;
  merchant?: Pick<Merchant, 'apiKey' | 'secretKey'>;
  /** UNIX seconds; default: the app clock's now. */
  timestamp?: number | string;
  /** Header overrides; a value of null removes the header. */
  headers?: Record<string, string | null>;
  /** Replace the signature after signing (to alter it). */
  signature?: string;
}

export function signedRequest(app: SandboxApp, call: Call): Request {
  const merchant = call.merchant ?? MERCHANT_A;
  const timestamp = call.timestamp ?? Math.floor(app.options.clock() / 1000);
  // Signed here with node's HMAC directly, so malformed timestamps ("1.5", "") can be signed too.
  const body = call.raw ?? (call.payload === undefined ? '' : canonicalize(call.payload));
  const signed = {
    canonical: body,
    signature: createHmac('sha256', merchant.secretKey)
      .update(body + String(timestamp))
      .digest('hex'),
  };
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-API-KEY': merchant.apiKey,
    'X-TIMESTAMP': String(timestamp),
    'X-SIGNATURE': call.signature ?? signed.signature,
  };
  for (const [name, value] of Object.entries(call.headers ?? {})) {
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
    if (value !== null) headers[name] = value;
  }
  return new Request(ORIGIN + call.path, { method: 'POST', headers, body: signed.canonical });
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The body as JSON.parse gives it: tests read it untyped, and their assertions are the type check (eslint.config.js). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: a parsed body, read as the tests' assertions need
  json: any;
}

/** Sends a signed call in-process and reads the answer. */
export async function call(app: SandboxApp, c: Call): Promise<Answer> {
  const response = await app.handle(signedRequest(app, c));
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, json };
}

/** A sandbox on a clock the test moves by hand. */
export function sandboxAt(options: SandboxOptions = {}): { app: SandboxApp; advance(seconds: number): void } {
  let now = T0;
  const app = createSandbox({ clock: () => now, ...options });
  return { app, advance: (seconds) => void (now += seconds * 1000) };
}

/** A fault's case in a fault test: a short sequence on a fresh sandbox, observed with the fault off and on. */
export interface FaultCase {
  fault: FaultName;
  /** Runs the sequence on a fresh sandbox with these faults; returns what a client observes. */
  observe(faults: FaultName[]): Promise<unknown>;
  off: unknown;
  on: unknown;
}
