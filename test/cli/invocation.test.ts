import { mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { invocation } from '../../src/cli/invocation.js';
import { assertBuilt, startServe, tempDir } from './process.js';

beforeAll(assertBuilt);

describe('the command the password hint prints', () => {
  it('is npx outcome-tracker when started through npm (npm start in a checkout, npx, a script)', async () => {
    const served = startServe(['--port', '0', '--db', join(tempDir(), 'fresh.db')], {
      env: { npm_command: 'run-script', npm_lifecycle_event: 'start' },
    });
    try {
      const hint = await served.waitForLine((line) => line.includes('users set-password'));
      expect(hint).toMatch(
        /: npx outcome-tracker users set-password --email admin@localhost --password-stdin/,
      );
    } finally {
      await served.stop();
    }
  });

  it('is outcome-tracker when the command on PATH is this CLI, and node <script> otherwise', () => {
    const bin = tempDir();
    const script = resolve('dist/cli/main.js');
    expect(invocation({ PATH: bin }, script, resolve('.'))).toBe('node dist/cli/main.js');
    expect(invocation({ PATH: bin }, script, tempDir())).toBe(`node ${script}`);
    symlinkSync(script, join(bin, 'outcome-tracker'));
    expect(invocation({ PATH: `/nowhere:${bin}` }, script, tempDir())).toBe('outcome-tracker');
    // An app's node_modules/.bin is on PATH only while npm runs something: not the user's shell.
    const appBin = join(tempDir(), 'node_modules', '.bin');
    mkdirSync(appBin, { recursive: true });
    symlinkSync(script, join(appBin, 'outcome-tracker'));
    expect(invocation({ PATH: appBin }, script, resolve('.'))).toBe('node dist/cli/main.js');
    expect(invocation({ PATH: appBin, npm_command: 'exec' }, script, resolve('.'))).toBe(
      'npx outcome-tracker',
    );
  });
});
