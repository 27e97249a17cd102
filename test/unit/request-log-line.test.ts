import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { serveLogger } from '../../src/cli/server/logger.js';

/** A logger whose lines land in an array, as `serve` run in-process writes them. */
function capture(level: 'info' | 'warn') {
  const lines: string[] = [];
  const io = { err: (line: string) => lines.push(line) } as unknown as CliIo;
  return { log: serveLogger(io, level), lines };
}

const withoutTime = (line: string) => ({ ...JSON.parse(line), time: 'T' });

describe('the request log line', () => {
  it("is the line pino writes for logger.info(entry, 'request'), fields in the same order", () => {
    const { log, lines } = capture('info');
    const entry = {
      method: 'GET',
      path: '/api/v1/issues/"quoted"\\\u0001é',
      status: 200,
      durationMs: 1.234567,
      requestId: 'req-1',
    };
    log.request(entry);
    log.logger.info(entry, 'request');
    expect(lines).toHaveLength(2);
    const [built, pinos] = lines as [string, string];
    expect(built.replace(/"time":"[^"]+"/, '')).toBe(pinos.replace(/"time":"[^"]+"/, ''));
    expect(withoutTime(built)).toEqual(withoutTime(pinos));
    expect(JSON.parse(built).time).toMatch(/^\d{4}-\d\d-\d\dT\S+Z$/);
  });

  it('is not written below info', () => {
    const { log, lines } = capture('warn');
    log.request({ method: 'GET', path: '/', status: 200, durationMs: 1, requestId: 'r' });
    expect(lines).toEqual([]);
  });
});
