/** At most `max` tasks at once; the rest wait in the order they asked, except that a task asked `ahead`
 *  waits only behind the other `ahead` ones. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly waitingAhead: Array<() => void> = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a limit of ${max} tasks at once is not a whole number of at least 1`);
  }

  get inFlight(): number {
    return this.active;
  }

  /** `ahead` is for work others wait on (a lane's requests: each wait lengthens the whole run), while a
   *  property check's many requests can wait a little instead. */
  async run<T>(task: () => Promise<T>, { ahead = false }: { ahead?: boolean } = {}): Promise<T> {
    if (this.active < this.max) this.active += 1;
    else await new Promise<void>((resolve) => (ahead ? this.waitingAhead : this.waiting).push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, so a newcomer cannot overtake it.
      const next = this.waitingAhead.shift() ?? this.waiting.shift();
      if (next !== undefined) next();
      else this.active -= 1;
    }
  }
}

/** Up to `max` at once; results in the items' order, and the first failure in that order (not in time)
 *  is thrown, so a run's verdict does not depend on which answer arrived first. */
export async function settleInOrder<T, R>(items: readonly T[], max: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const limiter = new Limiter(max);
  const settled = await Promise.allSettled(items.map((item, index) => limiter.run(() => task(item, index))));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<R>).value);
}
