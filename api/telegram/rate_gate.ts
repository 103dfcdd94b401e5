/*
 * A sliding-window gate: at most `limit` passes in any `windowMs`. Callers await take();
 * when the window is full they wait until the oldest pass leaves it. Passes are granted
 * in arrival order.
 */
export class RateGate {
  #passes: number[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(readonly limit: number, readonly windowMs: number, private now = () => Date.now()) {}

  take(): Promise<void> {
    const turn = this.#queue.then(() => this.#wait());
    this.#queue = turn.catch(() => {});
    return turn;
  }

  async #wait() {
    while (true) {
      const t = this.now();
      while (this.#passes.length > 0 && this.#passes[0] <= t - this.windowMs) this.#passes.shift();
      if (this.#passes.length < this.limit) {
        this.#passes.push(t);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, this.#passes[0] + this.windowMs - t + 1));
    }
  }

  /** Idle gates hold no passes and can be dropped. */
  get idle() {
    return this.#passes.length === 0 || this.#passes[this.#passes.length - 1] <= this.now() - this.windowMs;
  }
}
