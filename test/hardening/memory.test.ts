import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventTypes } from '../../src/core/index.js';
import { assertBuilt, type Served, type Startup, startServeJson, tempDir } from '../cli/process.js';

/**
 * Memory of a real `serve` process under thousands of requests of varied query shapes: every
 * combination of filters, dates, limits and search, and signal type lists of every length. Each
 * shape once had its own SQL text, and the unbounded prepared-statement cache grew the process by
 * ~700 MB over 4,000 requests. Now filters are bound parameters and these shapes compile about 150
 * statements in all (under the cache's bound of `statementCacheSize`, checked in-process in
 * test/sqlite/statement-cache.test.ts), so this guards what an operator sees: memory retained per
 * request shape, from the statements or from anywhere else.
 */

/** The process's resident set in MB, as the kernel counts it. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  return kb / 1024;
}

const filters = [
  'status=open',
  'severity=high',
  'assigneeId=usr_x',
  'outcomeId=out_x',
  'projectId=prj_x',
  'createdAfter=2026-01-01T00:00:00Z',
  'createdBefore=2027-01-01T00:00:00Z',
  'updatedSince=2026-01-01T00:00:00Z',
];

/** `count` request paths of varied shapes, the same for a given seed. */
function paths(count: number, seed: number): string[] {
  const shapes = fc.sample(
    fc.record({
      family: fc.constantFrom('issues', 'outcomes', 'projects', 'decisions', 'signals'),
      chosen: fc.subarray(filters),
      limit: fc.option(fc.integer({ min: 1, max: 200 })),
      search: fc.boolean(),
      types: fc.array(fc.constantFrom(...eventTypes), { minLength: 1, maxLength: 30 }),
    }),
    { numRuns: count, seed },
  );
  return shapes.map(({ family, chosen, limit, search, types }) => {
    const params: string[] = [];
    if (family === 'signals') params.push(...types.map((type) => `types=${type}`));
    else if (family === 'issues') params.push(...chosen);
    else params.push(...chosen.filter((filter) => /^(created|updated)/.test(filter)));
    if (limit !== null) params.push(`limit=${limit}`);
    if (search && ['issues', 'outcomes', 'projects'].includes(family)) {
      params.push(`q=${randomUUID().slice(0, 6)}`);
    }
    return `/${family}?${params.join('&')}`;
  });
}

describe('memory of serve under varied query shapes', () => {
  let served: Served & { startup: Startup };
  let token: string;

  beforeAll(async () => {
    assertBuilt();
    served = await startServeJson([
      ...['--db', join(tempDir(), 'tracker.db')],
      ...['--rate-limit', '0', '--log-level', 'warn'],
    ]);
    token = served.startup.init?.token ?? '';
  });
  afterAll(async () => {
    await served?.stop('SIGKILL');
  });

  /** Sends the paths, 8 at a time; every one must answer 200. */
  const send = async (all: string[]) => {
    let next = 0;
    const failed: string[] = [];
    const worker = async () => {
      while (next < all.length) {
        const path = all[next++] as string;
        const response = await fetch(`${served.startup.apiUrl}${path}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await response.arrayBuffer();
        if (response.status !== 200) failed.push(`${response.status} ${path}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(failed).toEqual([]);
  };

  it('grows by less than 64 MB over 3,000 requests of varied shapes after a warm-up of 500', async () => {
    const pid = served.child.pid ?? 0;
    const started = rssMb(pid);
    await send(paths(500, 1));
    const warm = rssMb(pid);
    const measured = paths(3_000, 2);
    await send(measured);
    const after = rssMb(pid);
    const shapes = new Set(measured.map((path) => path.replace(/q=[^&]+/, 'q=…'))).size;
    console.log(
      `Memory: serve RSS ${started.toFixed(0)} MB at start, ${warm.toFixed(0)} MB after 500 warm-up requests, ` +
        `${after.toFixed(0)} MB after 3,000 more of ${shapes} distinct shapes (+${(after - warm).toFixed(1)} MB)`,
    );
    expect(after - warm).toBeLessThan(64);
  }, 60_000);
});
