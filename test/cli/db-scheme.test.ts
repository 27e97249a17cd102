import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, tempDir } from './process.js';

beforeAll(assertBuilt);

const known = 'the known ones are postgres:// and postgresql://; anything else is a SQLite file path';

describe('a --db shaped like a URL of an unknown scheme', () => {
  it.each([
    ['serve --port 0', 'mysql://root@127.0.0.1/x'],
    ['serve --port 0', 'postgress://postgres@127.0.0.1:5432/test'],
    ['init --workspace acme --admin-email a@b.c', 'sqlite:///tmp/tracker.db'],
    ['tokens list --workspace acme', 'mysql://root@127.0.0.1/x'],
  ])('%s --db %s is refused with exit 2, naming the known schemes, and creates nothing', async (line, db) => {
    const cwd = tempDir();
    const result = await runCli([...line.split(' '), '--db', db], { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const scheme = db.slice(0, db.indexOf('://') + 3);
    expect(result.stderr).toContain(`--db: unknown database scheme "${scheme}": ${known}`);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each(['serve --port 0', 'tokens list --workspace acme'])(
    '%s: $OUTCOME_TRACKER_DB is held to the same rule',
    async (line) => {
      const cwd = tempDir();
      const result = await runCli(line.split(' '), {
        cwd,
        env: { OUTCOME_TRACKER_DB: 'mysql://root@127.0.0.1/x' },
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /OUTCOME_TRACKER_DB\S*: unknown database scheme "mysql:\/\/": the known ones/,
      );
      expect(readdirSync(cwd)).toEqual([]);
    },
  );

  it('a file path, even one with a colon, is still a SQLite file', async () => {
    const cwd = tempDir();
    const result = await runCli(['init', '--workspace', 'acme', '--admin-email', 'a@b.c', '--db', 'a:b.db'], {
      cwd,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(existsSync(join(cwd, 'a:b.db'))).toBe(true);
  });
});
