// The (timestamp, signature) pairs a run has sent, so none is sent twice (P-CLIENT-3), and the free
// seconds a request may take: a server that refuses replays (P-AUTH-4) is not tripped by two equal reads.
import { hmacSha256Hex } from '../signer/sign.js';

/** Seconds drawn at random before the free ones of a range are listed (see freeAtRandom). */
const RANDOM_TRIES = 4;

/** A second of from..to where `isFree`, each equally likely; undefined when none. A few random draws
 *  first; the list of free ones is built only when they all miss. */
export function freeAtRandom(from: number, to: number, isFree: (second: number) => boolean): number | undefined {
  if (from > to) return undefined;
  for (let tries = 0; tries < RANDOM_TRIES; tries++) {
    const second = from + Math.floor(Math.random() * (to - from + 1));
    if (isFree(second)) return second;
  }
  const free: number[] = [];
  for (let second = from; second <= to; second++) if (isFree(second)) free.push(second);
  return free.length === 0 ? undefined : free[Math.floor(Math.random() * free.length)];
}

/** What was signed: as computed over a body and a timestamp, or a signature a check gave or altered. */
type SignedPair = { secretKey: string; signedBody: string; signedTimestamp: string } | { signature: string };

/** The pairs one run sent (shared with its sibling clients), and the seconds still free for a body. */
export class UsedSeconds {
  /** Per secret, per body, the timestamps signed with: whether a pair is taken is a look-up, not an HMAC
   *  (a repeated read looks at 150 seconds). */
  private readonly signed = new Map<string, Map<string, Set<string>>>();
  /** Pairs whose signature a check gave or altered, by the signature itself. */
  private readonly given = new Set<string>();
  /** The seconds of `given`: only at these is a body's signature computed to compare. */
  private readonly givenSeconds = new Set<string>();
  /** The X-TIMESTAMPs of both: a second no request carried is free without more. */
  private readonly seconds = new Set<string>();

  /** `startSecond`: when the run began; a timestamp from then on was never used by an earlier run. */
  constructor(readonly startSecond: number) {}

  markUsed(timestamp: string, pair: SignedPair): void {
    this.seconds.add(timestamp);
    if ('signature' in pair) {
      this.given.add(`${timestamp}\u0000${pair.signature}`);
      this.givenSeconds.add(timestamp);
      return;
    }
    // The signed text as body + the timestamp sent, when it ends with that timestamp (a body signed
    // alone may end with the second it is sent at); any other text is no body's pair at a second.
    const signedText = pair.signedTimestamp === timestamp ? undefined : pair.signedBody + pair.signedTimestamp;
    const body =
      signedText === undefined
        ? pair.signedBody
        : signedText.endsWith(timestamp)
          ? signedText.slice(0, signedText.length - timestamp.length)
          : undefined;
    if (body === undefined) return;
    let bodies = this.signed.get(pair.secretKey);
    if (bodies === undefined) this.signed.set(pair.secretKey, (bodies = new Map<string, Set<string>>()));
    const seconds = bodies.get(body);
    if (seconds === undefined) bodies.set(body, new Set([timestamp]));
    else seconds.add(timestamp);
  }

  /** The current second first; a repeat draws among the last half window (this run's seconds first); a
   *  resend after a 401 avoids the window's last minute, where other runs sending the same read meet. */
  take(body: string, secretKey: string, now: number, tolerance: number, resend: boolean): string | undefined {
    const half = Math.min(150, Math.floor(tolerance / 2));
    const maxStepBack = resend ? Math.max(half, tolerance - 60) : half;
    const signedAt = this.signed.get(secretKey)?.get(body);
    const isFree = (seconds: number) => {
      const second = String(seconds);
      if (!this.seconds.has(second)) return true;
      if (signedAt?.has(second)) return false;
      return !this.givenSeconds.has(second) || !this.given.has(`${second}\u0000${hmacSha256Hex(secretKey, body + second)}`);
    };
    let second: number | undefined = !resend && isFree(now) ? now : undefined;
    second ??=
      (resend ? undefined : freeAtRandom(Math.max(now - maxStepBack, this.startSecond), now, isFree)) ??
      freeAtRandom(now - maxStepBack, now, isFree);
    if (second === undefined) return undefined;
    // Taken at once: a request sent beside this one must not pick the same pair.
    this.markUsed(String(second), { secretKey, signedBody: body, signedTimestamp: String(second) });
    return String(second);
  }
}
