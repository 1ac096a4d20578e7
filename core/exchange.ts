/** One request and an answer or a transport failure, never both: after checking `exchange.error`,
 * `exchange.response` needs no assertion. */
export type Exchange = ExchangeRequest & (Answered | Unanswered);

/** An exchange that got an HTTP answer (what an `expect…` that passed leaves you with). */
export type AnsweredExchange = ExchangeRequest & Answered;

export interface ExchangeRequest {
  /** What the exchange is for, shown with its evidence. */
  label: string;
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  /** How long it took, ms. */
  ms: number;
  /** Sent again this many times after a 401, as a target refuses a replay of another run's identical request. */
  resent?: number;
  /** How a signed request was signed: what a reproduce line needs to sign it the same way (right or wrong) again. */
  signing?: Signing;
  /** Set on a webhook delivery the kit's receiver got from the target: its event, which `trigger` makes the target send again. */
  delivery?: { event?: string };
}

/** How the kit signed a request, nothing secret in it, so a reproduce line can rebuild the signature (or defect)
 * with a fresh X-TIMESTAMP. */
export interface Signing {
  /** The client clock's whole seconds when it was sent: X-TIMESTAMP is rebuilt relative to it. */
  sentAt: number;
  /** X-TIMESTAMP as made (also when the request left the header out). */
  timestamp: string;
  /** Whose secret made the signature: a configured one, by its config key, a made-up one (no secret, shown), or one that cannot be shown. */
  secret: 'merchant' | 'otherMerchant' | 'otherEnvironment' | 'unshown' | { madeUp: string };
  /** Signed or sent wrong or not at all on purpose (a negative-auth probe): a reproduce line must not sign it afresh. */
  deliberate: boolean;
  /** The text signed in place of the body sent (a body changed after signing). */
  signedBody?: string;
  /** The timestamp text signed in place of X-TIMESTAMP ('' : the body alone was signed). */
  signedTimestamp?: string;
  /** What was done to the computed signature: cut to its first characters, its last one changed, or replaced by one made another way. */
  edit?: { truncatedTo: number } | 'last-character-changed' | 'replaced';
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json?: unknown;
}

export interface Answered {
  response: HttpAnswer;
  error?: undefined;
}

export interface Unanswered {
  response?: undefined;
  /** A transport failure instead of a response: refused, timed out, reset. */
  error: TransportError;
}

export interface TransportError {
  code: TransportErrorCode;
  message: string;
}

/** 'stopped': not sent, because the run stopped (its time budget spent, or a target that only throttles or stalls). */
export type TransportErrorCode = 'refused' | 'timeout' | 'reset' | 'unresolved' | 'other' | 'stopped';
