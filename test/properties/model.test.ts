import fc from 'fast-check';
import { describe, it } from 'vitest';
import { adaptersUnderTest } from '../support/adapters.js';
import { commandArbitraries } from './commands.js';
import { emptyModel } from './model.js';
import { inWorld, runsOn } from './support.js';

describe.each(adaptersUnderTest)('outcomes, issues and time entries on $name storage', (adapter) => {
  it('answer every command sequence as the in-memory model does, command by command', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.commands(commandArbitraries, { maxCommands: 40, size: 'max' }),
        async (commands) => {
          await inWorld(adapter, (world) =>
            fc.asyncModelRun(() => ({ model: emptyModel(), real: world }), commands),
          );
        },
      ),
      { numRuns: runsOn(adapter, 40) },
    );
  });
});
