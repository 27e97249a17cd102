import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, runJson, tempDir } from './process.js';

describe('outcome-tracker export and import through the built CLI, on SQLite files', () => {
  beforeAll(assertBuilt);

  it('exports on standard output, imports into another file, and the export of that equals the first', async () => {
    const dir = tempDir();
    const source = join(dir, 'source.db');
    const target = join(dir, 'target.db');
    await runJson(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', '--db', source]);
    await runJson([
      'projects',
      'create',
      '--workspace',
      'acme',
      '--name',
      'Apollo',
      '--key',
      'APO',
      '--db',
      source,
    ]);
    const issues = join(dir, 'issues.csv');
    writeFileSync(
      issues,
      'id,title,status,assignee\n1,"One, first",resolved,ada@acme.test\n2,Two,blocked,\n',
    );
    const imported = await runJson([
      'import',
      '--workspace',
      'acme',
      '--from',
      issues,
      '--project',
      'APO',
      '--db',
      source,
    ]);
    expect(imported).toMatchObject({ format: 'csv', created: { issues: 2 }, existing: { projects: 1 } });

    const first = await runCli(['export', '--workspace', 'acme', '--db', source]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('issues: 2 records, done');
    const records = first.stdout.trimEnd().split('\n');
    expect(records).toHaveLength(1 + 1 + 1 + 2 + 1);

    await runJson(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', '--db', target]);
    const file = join(dir, 'acme.jsonl');
    writeFileSync(file, first.stdout);
    const quiet = await runJson([
      'import',
      '--workspace',
      'acme',
      '--from',
      file,
      '--quiet-events',
      '--db',
      target,
    ]);
    expect(quiet).toMatchObject({
      format: 'jsonl',
      created: { projects: 1, issues: 2 },
      existing: { members: 1 },
    });
    const again = await runJson(['import', '--workspace', 'acme', '--from', file, '--db', target]);
    expect(again.created).toEqual({});

    // The target's admin is the same person (by email) under another id, who joined at another
    // time: records name it there; everything else is as exported.
    const second = await runCli(['export', '--workspace', 'acme', '--db', target]);
    const data = (text: string) =>
      text
        .trimEnd()
        .split('\n')
        .slice(1, -1)
        .filter((line) => !line.startsWith('{"family":"members"'))
        .join('\n')
        .replace(/usr_[0-9A-Za-z]+/g, 'usr_');
    expect(data(second.stdout)).toBe(data(first.stdout));
  });
});
