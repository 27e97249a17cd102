import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/command.js';
import { commandTable } from '../../src/cli/commands/index.js';
import { codeBlocks, userDocs } from './readme.js';

/** Splits a shell command line into words, honouring single and double quotes. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** The `outcome-tracker …` invocations in the shell blocks of the README and docs/ (after a pipe, if any). */
function invocations(): string[][] {
  return codeBlocks(userDocs, 'sh')
    .flatMap((block) => block.split('\n'))
    .map((line) => line.slice(line.lastIndexOf('| ') + 1).trim())
    .filter((line) => line.startsWith('outcome-tracker '))
    .map((line) => words(line).slice(1));
}

describe('the CLI commands of the README and docs/cli.md', () => {
  it('shows every command of the CLI', () => {
    const shown = new Set(
      invocations().map((argv) => commandTable.find((e) => argv.join(' ').startsWith(e.name))?.name),
    );
    for (const entry of commandTable) expect(shown, entry.name).toContain(entry.name);
  });

  it('names real commands with flags each command accepts', async () => {
    for (const argv of invocations()) {
      const entry = [...commandTable]
        .sort((a, b) => b.name.length - a.name.length)
        .find((e) => argv.slice(0, e.name.split(' ').length).join(' ') === e.name);
      expect(entry, argv.join(' ')).toBeDefined();
      if (!entry) continue;
      const command = await entry.load();
      expect(() => parseCommandLine(command, argv.slice(entry.name.split(' ').length))).not.toThrow();
    }
  });
});
