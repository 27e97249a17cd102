import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks } from './readme.js';

/** The example suites of docs/testing.md: one app, tested under each runner. */
const dir = 'examples/testing';
const sources = ['support-desk.mjs', 'vitest.test.mjs', 'jest.test.mjs', 'node.test.mjs'].map((file) =>
  readFileSync(`${dir}/${file}`, 'utf8'),
);

/**
 * Runs a command with node; resolves with its exit code and output. The suite's own VITEST*
 * variables are left out, so a vitest started here does not take itself for a worker of this one,
 * and colours are off so the summaries read as plain text.
 */
function run(args: string[]): Promise<{ code: number; output: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'FORCE_COLOR'),
  );
  return new Promise((done) => {
    execFile(
      process.execPath,
      args,
      { env: { ...env, NODE_ENV: 'test', NO_COLOR: '1' } },
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

  it('passes under Jest, as native ES modules', async () => {
    const { code, output } = await run([
      '--experimental-vm-modules',
      'node_modules/jest/bin/jest.js',
      '--config',
      `${dir}/jest.config.mjs`,
    ]);
    expect(output).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(code).toBe(0);
  });

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
