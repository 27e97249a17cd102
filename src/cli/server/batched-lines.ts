import type { DestinationStream } from 'pino';

/**
 * Log lines gathered into chunks before they reach a destination: a chunk goes on once it holds
 * `minChars`, or `everyMs` after its first line, so a log reader still sees a quiet server's
 * lines promptly. Lines keep their order, whoever writes them (the request lines and pino's).
 *
 * Why not the destination's own batching (sonic-boom's `minLength`): it measures its whole
 * pending buffer in bytes at every line, flattening that growing string each time. A request's
 * line cost 1.6 µs of CPU there, written out included, against 0.6 µs here (400,000 lines of a
 * GET's size, 32 at a time, medians of 3). A chunk is 32 kB: a write's cost hardly grows with
 * its size (about 24 µs of CPU for 8 kB, 30 µs for 64 kB).
 */
export class BatchedLines implements DestinationStream {
  private lines: string[] = [];
  private chars = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly destination: DestinationStream,
    private readonly minChars = 32_768,
    private readonly everyMs = 100,
  ) {}

  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.minChars) this.pass();
    else this.timer ??= setTimeout(() => this.pass(), this.everyMs).unref();
  }

  /** Hands what is gathered to the destination now: before it ends, say. */
  pass(): void {
    const chunk = this.take();
    if (chunk === '') return;
    try {
      this.destination.write(chunk);
    } catch {
      // The destination has ended (a line logged after the last flush): nothing can be written,
      // and a timer's throw would end the process.
    }
  }

  /** What is gathered, no longer held here: for a caller that writes it itself (at exit). */
  take(): string {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const chunk = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    return chunk;
  }
}
