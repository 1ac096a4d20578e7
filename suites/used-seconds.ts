// The (timestamp, signature) pairs a run has sent, so none is sent twice (P-CLIENT-3), and the free
// seconds a request may take: a server that refuses replays (P-AUTH-4) is not tripped by two equal reads.
import { hmacSha256Hex } from '../signer/sign.js';

/** A second of from..to where `isFree`, each equally likely; undefined when none. */
export function freeAtRandom(from: number, to: number, isFree: (second: number) => boolean): number | undefined {
  const free = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i).filter(isFree);
  return free.length === 0 ? undefined : free[Math.floor(Math.random() * free.length)];
}

/** The pairs one run sent (shared with its sibling clients), and the seconds still free for a body. */
export class UsedSeconds {
  /** Every pair sent, as "timestamp NUL signature". */
  private readonly pairs = new Set<string>();
  /** Their X-TIMESTAMPs: a second no request carried is free without computing a signature. */
  private readonly seconds = new Set<string>();

  /** `startSecond`: when the run began; a timestamp from then on was never used by an earlier run. */
  constructor(readonly startSecond: number) {}

  markUsed(timestamp: string, signature: string): void {
    this.seconds.add(timestamp);
    this.pairs.add(`${timestamp}\u0000${signature}`);
  }

  /** The current second first; a repeat draws among the last half window (this run's seconds first); a
   *  resend after a 401 avoids the window's last minute, where other runs sending the same read meet. */
  take(body: string, secretKey: string, now: number, tolerance: number, resend: boolean): string | undefined {
    const half = Math.min(150, Math.floor(tolerance / 2));
    const maxStepBack = resend ? Math.max(half, tolerance - 60) : half;
    const signatureAt = (second: number) => hmacSha256Hex(secretKey, `${body}${second}`);
    const isFree = (second: number) => !this.seconds.has(String(second)) || !this.pairs.has(`${second}\u0000${signatureAt(second)}`);
    let second: number | undefined = !resend && isFree(now) ? now : undefined;
    second ??=
      (resend ? undefined : freeAtRandom(Math.max(now - maxStepBack, this.startSecond), now, isFree)) ??
      freeAtRandom(now - maxStepBack, now, isFree);
    if (second === undefined) return undefined;
    // Taken at once: a request sent beside this one must not pick the same pair.
    this.markUsed(String(second), signatureAt(second));
    return String(second);
  }
}
