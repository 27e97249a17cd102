import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/layers', import.meta.url));

/** Runs dependency-cruiser with the repository's rules over a directory laid out like src/. */
function cruise(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      `${root}node_modules/.bin/depcruise`,
      ['src', '--config', `${root}.dependency-cruiser.cjs`, '--output-type', 'err'],
      { cwd },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe('the layering check (npm run check:layers)', () => {
  it('fails on a tree that breaks each rule, naming the rule and the import', async () => {
    const { code, output } = await cruise(fixture);
    expect(code).not.toBe(0);
    expect(output).toContain('error port-is-the-floor: src/core/port/store.ts → src/core/pipeline/step.ts');
    expect(output).toContain('error core-not-upward: src/core/pipeline/step.ts → src/http/host.ts');
    expect(output).toContain(
      'error adapters-use-the-port: src/adapters/memory/index.ts → src/core/pipeline/step.ts',
    );
    expect(output).toContain(
      'error hosts-use-public-entries: src/http/server.ts → src/core/pipeline/step.ts',
    );
    expect(output).toContain(
      'error engine-below-families: src/core/pipeline/router.ts → src/core/families/notes/family.ts',
    );
    expect(output).toContain(
      'error webhooks-below-pipeline: src/core/webhooks/outbox.ts → src/core/pipeline/step.ts',
    );
    expect(output).toContain(
      'error sqlite-engine-alone: src/adapters/sqlite/engine/connection.ts → src/adapters/sqlite/stores/notes.ts',
    );
    expect(output).toMatch(/error no-circular: src\/core\/(pipeline\/step|port\/store)\.ts/);
  });
});
