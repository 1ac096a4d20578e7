import { describeErrors, validateSchema, type SchemaId } from '../schemas/index.js';
import type { FaultName } from './faults.js';
import type { ResolvedOptions } from './options.js';
import type { SandboxStore } from './store.js';
import type { Merchant } from './tenants.js';
import type { WebhookSender } from './webhook-sender.js';
import type { SandboxResponse } from './envelope.js';

/** What an operation handler gets: the authenticated merchant, the parsed body, and the sandbox. */
export interface OperationContext extends Pick<SandboxApp, 'store' | 'options' | 'webhooks' | 'later'> {
  merchant: Merchant;
  /** The request body, parsed and known to be a JSON object. */
  body: Record<string, unknown>;
  /** Origin the client reached this sandbox at (for payment links), e.g. http://127.0.0.1:4010. */
  origin: string;
  /** A property, not a method: handlers pass it on as a plain function (payoutRecord). */
  fault: (name: FaultName) => boolean;
  now(): number;
}

export type OperationHandler = (ctx: OperationContext) => SandboxResponse | Promise<SandboxResponse>;

/** A request refused for its content: handlers throw it, the app answers the error envelope. */
export class OperationError extends Error {
  override readonly name = 'OperationError';
  readonly code = 'SVC_SANDBOX_REFUSED';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Validates a body against a schema; the first problem becomes a 400 that names the field. */
export function requireSchema(id: SchemaId, body: unknown): void {
  const result = validateSchema(id, body);
  if (!result.valid) throw new OperationError(400, describeErrors(result.errors.slice(0, 1)));
}

/** What the sandbox serves: API operations by path (signed POSTs with a JSON body), and pages under a
 * path prefix (e.g. /checkout/) with rules of their own. */
export interface Routes {
  operations: Readonly<Record<string, OperationHandler>>;
  pages: readonly PageRoute[];
}

export interface PageRoute {
  method: 'GET' | 'POST';
  prefix: string;
  handle(request: Request, rest: string, app: SandboxApp, body: Uint8Array | undefined): Promise<SandboxResponse> | SandboxResponse;
}

export interface SandboxApp {
  readonly options: ResolvedOptions;
  readonly store: SandboxStore;
  readonly webhooks: WebhookSender;
  /** Runs a task later on the sandbox's clock, unless it has closed by then. */
  later(ms: number, task: () => void): void;
  /** Answers one request, logged and recorded: the same for a socket and an in-process call. `body` is
   *  the bytes the socket layer read (its Request then has none); without it the Request's own are read. */
  handle(request: Request, received?: ReceivedOn, body?: Uint8Array): Promise<SandboxResponse>;
  /** Releases held answers, stops timers and deliveries, and waits for every request in hand. */
  close(): Promise<void>;
}

/** What the socket layer knows of a request beyond the Request itself (recorded with it). */
export interface ReceivedOn {
  /** The connection it came on, numbered from 1 in the order the listener accepted them. */
  connection: number;
  /** When the listener accepted that connection, on the sandbox's clock. */
  connectedAt: number;
  /** The longest recent stall of the event loop, ms: the request may have arrived that much earlier. */
  stalledMs?: number;
}
