/**
 * How the dispatcher's loop (or a dispatchDue) sleeps and is woken: a nudge wakes whoever waits,
 * or, when no one does, marks the next wait as done at once, so no nudge is lost between waits.
 */
export class Wakeup {
  private poke: (() => void) | null = null;
  private dirty = false;

  /** Wakes the waiter, or the next one to wait. */
  readonly nudge = (): void => {
    this.dirty = true;
    const wake = this.poke;
    this.poke = null;
    wake?.();
  };

  /** Forgets a nudge no one waited for. */
  clear(): void {
    this.dirty = false;
  }

  /**
   * Resolves at the next nudge (at once when one came since the last wait), or after `ms`, then
   * calling `onTimeout` first: a sleep to its end means deliveries may have come due.
   */
  idle(ms: number, onTimeout: () => void): Promise<void> {
    if (this.dirty) {
      this.dirty = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          onTimeout();
          done();
        },
        Math.max(0, ms),
      );
      const done = () => {
        clearTimeout(timer);
        if (this.poke === done) this.poke = null;
        this.dirty = false;
        resolve();
      };
      this.poke = done;
    });
  }

  /** Resolves at the next nudge. */
  nudged(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        if (this.poke === done) this.poke = null;
        resolve();
      };
      this.poke = done;
    });
  }
}
