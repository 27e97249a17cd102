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
    // A package is named by where it resolves (node_modules/<name>/…), a Node module by its name.
    for (const hostModule of ['hono', 'better-sqlite3', 'pg']) {
      expect(output).toMatch(
        new RegExp(`error core-no-host-packages: src/core/edge/server.ts → \\S*node_modules/${hostModule}/`),
      );
    }
    expect(output).toContain('error core-no-host-packages: src/core/edge/server.ts → http\n');
    expect(output).toContain('error core-no-sockets: src/core/edge/server.ts → net');
    expect(output).toContain(
      'error extensions-use-public-entries: src/admin/pages.ts → src/core/pipeline/step.ts',
    );
    expect(output).toContain(
      'error extensions-use-public-entries: src/mcp/tools.ts → src/core/pipeline/router.ts',
    );
    expect(output).toContain(
      'error extensions-not-adapters: src/admin/pages.ts → src/adapters/memory/index.ts',
    );
    expect(output).toContain(
      'error pipeline-loads-no-family: src/core/pipeline/handle.ts → src/core/openapi/document.ts',
    );
    expect(output).toContain(
      'error pipeline-loads-no-family: src/core/pipeline/handle.ts → src/core/families/index.ts',
    );
  });

  it('allows what the rules leave open: the SSRF guard on node:net, an extension on the public entry', async () => {
    const { output } = await cruise(fixture);
    expect(output).toContain('src/core/edge/server.ts → net');
    expect(output).not.toContain('src/core/webhooks/ssrf.ts');
    expect(output).not.toContain('src/mcp/tools.ts → src/core/index.ts');
  });
});
