import type { Storage } from '../port/index.js';
import type { Clock, Ids } from '../runtime.js';
import { isoTime } from '../runtime.js';
import type { AttemptEvent } from './attempt-event.js';
import { type ResultToRecord, recordResults } from './record.js';

interface Pending {
  result: ResultToRecord;
  report: AttemptEvent | null;
  recorded: () => void;
}

/**
 * Records attempts' results in batches, one transaction each, fenced by each claim's lease: the
 * results that come in while a batch is written make the next one.
 */
export class ResultRecorder {
  private buffer: Pending[] = [];
  /** The batches being written, while there are any. */
  flushing: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      storage: Storage;
      clock: Clock;
      ids: Ids;
      /** Told when recording queued deliveries (a disabling's `webhook.updated`). */
      onQueued: () => void;
      onError?: ((error: unknown) => void) | undefined;
      onAttempt?: ((event: AttemptEvent) => void) | undefined;
    },
  ) {}

  /** Queues a result for the next recording batch; resolves once that batch is committed (or failed). */
  record(result: ResultToRecord, report: AttemptEvent | null): Promise<void> {
    return new Promise((recorded) => {
      this.buffer.push({ result, report, recorded });
      if (!this.flushing)
        this.flushing = this.flush().finally(() => {
          this.flushing = null;
        });
    });
  }

  /** Records buffered results, a batch per transaction, until none is left. */
  private async flush(): Promise<void> {
    const { storage, clock, ids, onQueued, onError } = this.deps;
    // Let the attempts finishing in this turn of the event loop join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.buffer.length > 0) {
      const batch = this.buffer;
      this.buffer = [];
      try {
        const applied = await storage.transaction((tx) =>
          recordResults(
            tx,
            ids,
            isoTime(clock.now()),
            batch.map((b) => b.result),
            onQueued,
          ),
        );
        batch.forEach((b, i) => {
          if (b.report) this.report({ ...b.report, recorded: applied[i] ?? false });
        });
      } catch (error) {
        // Unrecorded results leave their deliveries leased: they are sent again after the lease.
        onError?.(error);
      } finally {
        for (const b of batch) b.recorded();
      }
    }
  }

  private report(event: AttemptEvent): void {
    try {
      this.deps.onAttempt?.(event);
    } catch (error) {
      this.deps.onError?.(error);
    }
  }
}
