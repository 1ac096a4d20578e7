/**
 * One request the kit sent and what came of it: an answer, or a transport failure, never both and
 * never neither. The union lets code that has checked `exchange.error` use `exchange.response`
 * without an assertion.
 */
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
