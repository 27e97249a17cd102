import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleSkipReason } from '../support/examples.js';
import { codeBlocks } from './readme.js';

const jestSkipReason = exampleSkipReason('jest', ['jest', 'outcome-tracker']);

/** The example suites of docs/testing.md: one app, tested under each runner. */
const dir = 'examples/testing';
const sources = [
  `${dir}/support-desk.mjs`,
  `${dir}/vitest.test.mjs`,
  'examples/jest/jest.test.mjs',
  `${dir}/node.test.mjs`,
].map((file) => readFileSync(file, 'utf8'));

/**
 * Runs a command with node; resolves with its exit code and output. The suite's own VITEST*
 * variables are left out, so a vitest started here does not take itself for a worker of this one,
 * and colours are off so the summaries read as plain text.
 */
function run(args: string[], cwd = '.'): Promise<{ code: number; output: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'FORCE_COLOR'),
  );
  return new Promise((done) => {
    execFile(
      process.execPath,
      args,
      { cwd, env: { ...env, NODE_ENV: 'test', NO_COLOR: '1' } },
      (error, stdout, stderr) =>
        done({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

beforeAll(() => {
  if (!existsSync('dist/testing/index.js')) throw new Error('dist/testing is missing: npm run build first');
});

describe('the test kit’s example suites, each run by its own runner', () => {
  it('passes under vitest', async () => {
    const { code, output } = await run([
      'node_modules/vitest/vitest.mjs',
      'run',
      '--config',
      `${dir}/vitest.config.mjs`,
    ]);
    expect(output).toMatch(/Tests\s+3 passed \(3\)/);
    expect(code).toBe(0);
  });

  // Jest is the example's own dependency (examples/jest/package.json), installed by .ci/run.
  it.skipIf(jestSkipReason)(
    `passes under Jest, as native ES modules${jestSkipReason ? ` (skipped: ${jestSkipReason})` : ''}`,
    async () => {
      const { code, output } = await run(
        ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js'],
        'examples/jest',
      );
      expect(output).toMatch(/Tests:\s+3 passed, 3 total/);
      expect(code).toBe(0);
    },
  );

  it('passes under node:test', async () => {
    const { code, output } = await run(['--test', `${dir}/node.test.mjs`]);
    expect(output).toMatch(/^# pass 3$/m);
    expect(output).toMatch(/^# fail 0$/m);
    expect(code).toBe(0);
  });

  it('every JavaScript block of docs/testing.md is an excerpt of these examples, so it runs as shown', () => {
    const blocks = codeBlocks(readFileSync('docs/testing.md', 'utf8'), 'js');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) {
      expect(
        sources.some((source) => source.includes(block)),
        `not in any example:\n${block}`,
      ).toBe(true);
    }
  });
});
