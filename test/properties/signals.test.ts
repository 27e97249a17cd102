import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptersUnderTest } from '../support/adapters.js';
import { commandArbitraries } from './commands.js';
import { emptyModel } from './model.js';
import { inWorld, readSignals, runsOn } from './support.js';

describe.each(adaptersUnderTest)('the signal stream on $name storage', (adapter) => {
  it('hold one event per successful mutation and none per failed one, in strictly increasing sequence', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.commands(commandArbitraries, { maxCommands: 30, size: 'max' }),
        fc.integer({ min: 1, max: 7 }),
        fc.nat(),
        async (commands, pageSize, pick) => {
          await inWorld(adapter, async (world) => {
            const seeded = await readSignals(world);
            const baseline = seeded.at(-1)?.sequence ?? 0;
            const model = emptyModel();
            await fc.asyncModelRun(() => ({ model, real: world }), commands);

            const events = await readSignals(world, baseline, pageSize);
            for (let i = 1; i < events.length; i++) {
              expect(events[i]?.sequence).toBeGreaterThan(
                events[i - 1]?.sequence ?? Number.POSITIVE_INFINITY,
              );
            }
            expect(events.map((e) => ({ type: e.type, resourceId: e.resource.id }))).toEqual(model.signals);
            for (const event of events) expect(event.data.object).toMatchObject({ id: event.resource.id });

            // The resourceId and types filters select exactly the model's events of that resource and type.
            const resourceId = model.signals[pick % Math.max(1, model.signals.length)]?.resourceId;
            if (resourceId !== undefined) {
              const one = await world.call('GET', '/signals', { query: { resourceId, limit: '200' } });
              expect(one.json.data.map((e: { type: string }) => e.type)).toEqual(
                model.signals.filter((e) => e.resourceId === resourceId).map((e) => e.type),
              );
            }
            const types = 'issue.status_changed,time_entry.deleted';
            const typed = await world.call('GET', '/signals', {
              query: { types, after: String(baseline), limit: '200' },
            });
            expect(typed.json.data.map((e: { resource: { id: string } }) => e.resource.id)).toEqual(
              model.signals.filter((e) => types.split(',').includes(e.type)).map((e) => e.resourceId),
            );
          });
        },
      ),
      { numRuns: runsOn(adapter, 30) },
    );
  });
});
