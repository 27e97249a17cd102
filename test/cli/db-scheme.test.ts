import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

  it.each([
    ['file:./x.db', 'x.db'],
    ['file:x.db', 'x.db'],
    ['file:data/x%20y.db', 'data/x y.db'],
  ])('a file: URL %s is the file it names (%s), not a folder named "file:"', async (db, file) => {
    const cwd = tempDir();
    const result = await runCli(['init', '--workspace', 'acme', '--admin-email', 'a@b.c', '--db', db], {
      cwd,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(existsSync(join(cwd, file))).toBe(true);
    expect(readdirSync(cwd).filter((name) => name.startsWith('file:'))).toEqual([]);
  });

  it('an absolute file:// URL is its path', async () => {
    const cwd = tempDir();
    const url = pathToFileURL(join(cwd, 'abs.db')).href;
    const result = await runCli(['init', '--workspace', 'acme', '--admin-email', 'a@b.c', '--db', url], {
      cwd,
    });
    expect(result.code).toBe(0);
    expect(readdirSync(cwd)).toEqual(['abs.db']);
  });

  it.each(['file:x.db?mode=ro', 'file://elsewhere/x.db', 'file:'])(
    'a file: URL a path cannot say (%s) is refused with exit 2 and creates nothing',
    async (db) => {
      const cwd = tempDir();
      const result = await runCli(['init', '--workspace', 'acme', '--admin-email', 'a@b.c', '--db', db], {
        cwd,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--db: "${db}"`);
      expect(readdirSync(cwd)).toEqual([]);
    },
  );

  it('copy --to is held to the same rules', async () => {
    const cwd = tempDir();
    const result = await runCli(['copy', '--from', 'a.db', '--to', 'mysql://root@127.0.0.1/x'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown database scheme "mysql://"');
  });
});
