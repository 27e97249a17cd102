import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../../src/core/index.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { scheduledStorage } from './scheduled-storage.js';
import { type Answer, inWorld, runsOn, type World } from './support.js';

type Control = ReturnType<typeof scheduledStorage>;

/** Opens a world whose storage calls the scheduler interleaves, and runs `body` in it. */
async function inScheduledWorld(
  adapter: (typeof adaptersUnderTest)[number],
  body: (world: World, control: Control) => Promise<void>,
): Promise<void> {
  let control: Control | null = null;
  const wrap = (inner: Storage) => {
    control = scheduledStorage(inner);
    return control.storage;
  };
  await inWorld(
    adapter,
    async (world) => {
      if (!control) throw new Error('the storage was not wrapped');
      await body(world, control);
    },
    { wrap },
  );
}

async function listIds(world: World): Promise<{ total: number; ids: string[] }> {
  const list = await world.call('GET', '/issues', { query: { limit: '200' } });
  return { total: list.json.total, ids: list.json.data.map((issue: { id: string }) => issue.id) };
}

describe.each(adaptersUnderTest)('concurrent creates on $name storage', (adapter) => {
  it('create exactly one issue for N interleaved creates with one key, the others replaying it or finding the key in use', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 10 }), async (s, n) => {
        await inScheduledWorld(adapter, async (world, control) => {
          const key = randomUUID();
          const body = { projectId: world.ws.projectId, title: 'Double-clicked submit' };
          control.use(s);
          const answers: Answer[] = await s.waitFor(
            Promise.all(
              Array.from({ length: n }, () =>
                world.call('POST', '/issues', { body, headers: { 'idempotency-key': key } }),
              ),
            ),
          );
          control.use(null);

          const created = answers.filter((a) => a.status === 201);
          expect(created).toHaveLength(1);
          const original = created[0]?.text;
          for (const answer of answers) {
            if (answer.status === 201) continue;
            if (answer.status === 200) {
              expect(answer.headers['idempotent-replayed']).toBe('true');
              expect(answer.text).toBe(original);
            } else {
              expect({ status: answer.status, error: answer.json.error }).toEqual({
                status: 409,
                error: 'idempotency_key_in_use',
              });
              expect(answer.headers['retry-after']).toMatch(/^\d+$/);
            }
          }
          const listed = await listIds(world);
          expect(listed.total).toBe(1);
          expect(listed.ids).toEqual([created[0]?.json.id]);
        });
      }),
      { numRuns: runsOn(adapter, 30) },
    );
  });

  it('create one issue per key, numbered without gaps, for N interleaved creates with distinct keys', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 10 }), async (s, n) => {
        await inScheduledWorld(adapter, async (world, control) => {
          control.use(s);
          const answers: Answer[] = await s.waitFor(
            Promise.all(
              Array.from({ length: n }, (_, i) =>
                world.call('POST', '/issues', {
                  body: { projectId: world.ws.projectId, title: `Report ${i}` },
                  headers: { 'idempotency-key': randomUUID() },
                }),
              ),
            ),
          );
          control.use(null);

          expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
          const numbers = answers.map((a) => a.json.number).sort((x, y) => x - y);
          expect(numbers).toEqual(Array.from({ length: n }, (_, i) => i + 1));
          const listed = await listIds(world);
          expect(listed.total).toBe(n);
          expect(listed.ids.sort()).toEqual(answers.map((a) => a.json.id).sort());
        });
      }),
      { numRuns: runsOn(adapter, 30) },
    );
  });
});
