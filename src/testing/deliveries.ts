import type { Tracker } from '../core/index.js';

/**
 * Sends the tracker's due webhook deliveries whenever asked, one run at a time: a run asked for
 * while one is going makes it go round once more, so a commit made during a run is not missed.
 * The test tracker asks after every commit (deliveries go out at once, as from a started
 * dispatcher) and at every step of `clock.advance`.
 */
export class DeliveryPump {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly tracker: Tracker,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts a run, or asks the current one for another round. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once nothing is running and no round is asked for. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Sends whatever is due now, and waits until it is recorded. */
  async drain(): Promise<void> {
    this.kick();
    await this.settled();
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        // A recorded result can queue more (a disabling's webhook.updated): until none is due.
        while ((await this.tracker.webhooks.dispatchDue()) > 0);
      } catch (error) {
        this.onError(error);
      }
    } while (this.again);
  }
}
