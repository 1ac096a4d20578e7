import { describeErrors, validateSchema, type SchemaId } from '../schemas/index.js';
import type { FaultName } from './faults.js';
import type { ResolvedOptions } from './options.js';
import type { SandboxStore } from './store.js';
import type { Merchant } from './tenants.js';
import type { WebhookSender } from './webhook-sender.js';

/** What an operation handler gets: the authenticated merchant, the parsed body, and the sandbox. */
export interface OperationContext {
  merchant: Merchant;
  /** The request body, parsed and known to be a JSON object. */
  body: Record<string, unknown>;
  store: SandboxStore;
  options: ResolvedOptions;
  /** Origin the client reached this sandbox at (for payment links), e.g. http://127.0.0.1:4010. */
  origin: string;
  /** A property, not a method: handlers pass it on as a plain function (payoutRecord). */
  fault: (name: FaultName) => boolean;
  /** Now, in ms, from the injected clock. */
  now(): number;
  /** Runs a task later on the sandbox's clock (a settlement); nothing runs once the sandbox has closed. */
  later(ms: number, task: () => void): void;
  /** Where the merchant's webhooks go (the control endpoint registers them). */
  webhooks: WebhookSender;
}

export type OperationHandler = (ctx: OperationContext) => Response | Promise<Response>;

/** A request refused for its content: handlers throw it, the app answers the error envelope. */
export class OperationError extends Error {
  override readonly name = 'OperationError';
  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Validates a body against a schema; the first problem becomes a 400 that names the field. */
export function requireSchema(id: SchemaId, body: unknown): void {
  const result = validateSchema(id, body);
  if (!result.valid) throw new OperationError(400, describeErrors(result.errors.slice(0, 1)));
}
