/*
 * A sliding-window gate: at most `limit` passes in any `windowMs`. Callers await take();
 * when the window is full they wait until the oldest pass leaves it. Passes are granted
 * in arrival order.
 *
 * With `evenly`, passes are also spaced at least windowMs/limit apart. After a stall (a
 * busy event loop, a slow database) a plain window would release a burst whose requests
 * reach Telegram bunched together with the previous ones still in flight; spacing keeps
 * the rate Telegram sees as smooth as the rate we grant.
 */
export class RateGate {
  #passes: number[] = [];
  #queue: Promise<void> = Promise.resolve();
  readonly #gap: number;
  /** When the next evenly spaced pass is due; timers that fire late catch up from here. */
  #nextSlot = 0;

  constructor(readonly limit: number, readonly windowMs: number, options: { evenly?: boolean } = {}) {
    this.#gap = options.evenly ? windowMs / limit : 0;
  }

  /** Resolves when the pass is granted, with the moment the gate counted it (Date.now()). */
  take(): Promise<number> {
    const turn = this.#queue.then(() => this.#wait());
    this.#queue = turn.then(() => {}, () => {});
    return turn;
  }

  async #wait(): Promise<number> {
    while (true) {
      const t = Date.now();
      while (this.#passes.length > 0 && this.#passes[0] <= t - this.windowMs) this.#passes.shift();
      if (this.#passes.length < this.limit && this.#nextSlot <= t) {
        this.#passes.push(t);
        // Catch up at most one slot after a late timer, so a stall never turns into a burst.
        this.#nextSlot = Math.max(this.#nextSlot, t - this.#gap) + this.#gap;
        return t;
      }
      const windowFreeAt = this.#passes.length < this.limit ? t : this.#passes[0] + this.windowMs + 1;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.max(windowFreeAt, this.#nextSlot) - t)));
    }
  }

  /** Idle gates hold no passes and can be dropped. */
  get idle() {
    return this.#passes.length === 0 || this.#passes[this.#passes.length - 1] <= Date.now() - this.windowMs;
  }
}
