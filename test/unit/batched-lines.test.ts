import { afterEach, expect, it, vi } from 'vitest';
import { BatchedLines } from '../../src/cli/server/batched-lines.js';

/** The log's batching (src/cli/server/batched-lines.ts): chunks of whole lines, in order, never held long. */

afterEach(() => {
  vi.useRealTimers();
});

const collecting = () => {
  const chunks: string[] = [];
  return { chunks, destination: { write: (chunk: string) => void chunks.push(chunk) } };
};

it('passes a chunk once it holds the minimum, its lines whole and in order', () => {
  const { chunks, destination } = collecting();
  const lines = new BatchedLines(destination, 30, 100);
  for (let i = 0; i < 10; i++) lines.write(`line ${i}\n`);
  // 7 characters a line: a chunk at the fifth line (35), another at the tenth.
  expect(chunks).toEqual([
    'line 0\nline 1\nline 2\nline 3\nline 4\n',
    'line 5\nline 6\nline 7\nline 8\nline 9\n',
  ]);
});

it('passes a quiet log within its interval, and what is left when asked', () => {
  vi.useFakeTimers();
  const { chunks, destination } = collecting();
  const lines = new BatchedLines(destination, 8192, 100);
  lines.write('first\n');
  vi.advanceTimersByTime(99);
  expect(chunks).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(chunks).toEqual(['first\n']);
  lines.write('second\n');
  lines.write('third\n');
  lines.pass();
  expect(chunks).toEqual(['first\n', 'second\nthird\n']);
  // Nothing left: the timer the second line set was cleared, and nothing more is passed.
  vi.advanceTimersByTime(1000);
  lines.pass();
  expect(chunks).toHaveLength(2);
});

it("writes the gathered lines of serve's log at an exit that does not flush it (a crash, process.exit)", async () => {
  const { execFile } = await import('node:child_process');
  const { resolve } = await import('node:path');
  const logger = resolve('dist/cli/server/logger.js');
  const script = (exit: string) =>
    `import { stderrLogDestination } from ${JSON.stringify(logger)};\n` +
    "import pino from 'pino';\n" +
    'const logger = pino({ level: "info" }, stderrLogDestination().stream);\n' +
    'logger.info("first"); logger.fatal("second");\n' +
    exit;
  for (const exit of ['process.exit(1);', 'throw new Error("boom");', '']) {
    const stderr = await new Promise<string>((done) =>
      execFile(process.execPath, ['--input-type=module', '-e', script(exit)], (_error, _out, err) =>
        done(err),
      ),
    );
    const messages = stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line).msg);
    expect(messages, exit || 'a drained event loop').toEqual(['first', 'second']);
  }
});
