import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTracker, issues, outcomes, projects } from '../../src/core/index.js';
import { transferFamilies } from '../../src/core/transfer/families.js';
import { memoryCli } from '../cli/memory-io.js';
import { tempDir } from '../support/adapters.js';

const source = ['--db', 'source.db'];
const target = ['--db', 'target.db'];

/** A workspace "acme" on source.db with a project, an outcome and three issues. */
async function populated() {
  const cli = memoryCli();
  expect(
    (await cli.run(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', ...source])).code,
  ).toBe(0);
  const tracker = createTracker({ storage: cli.storage('source.db'), rateLimit: false });
  await tracker.run({ workspaceSlug: 'acme' }, async (ctx) => {
    const project = await projects.create(ctx, { name: 'Apollo', key: 'APO' });
    const outcome = await outcomes.create(ctx, { projectId: project.id, title: 'Launch' });
    for (const title of ['One', 'Two', 'Three'])
      await issues.create(ctx, { projectId: project.id, title, outcomeId: outcome.id });
  });
  return cli;
}

describe('outcome-tracker export and import --format jsonl', () => {
  it('exports to a file with progress on stderr, and imports it into another database once', async () => {
    const cli = await populated();
    const file = join(tempDir(), 'acme.jsonl');
    const exported = await cli.run(['export', '--workspace', 'acme', '--out', file, ...source, '--json']);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout[0] ?? '')).toMatchObject({
      out: file,
      counts: { members: 1, projects: 1, issues: 3 },
    });
    expect(exported.stderr).toContain('{"family":"issues","written":3,"done":true}');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      format: 'outcome-tracker-export',
      version: 1,
      workspace: { slug: 'acme' },
    });
    expect(lines.join('\n')).not.toMatch(/hash|password|secret/i);

    expect(
      (await cli.run(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', ...target])).code,
    ).toBe(0);
    // The target's APO project is made by the import; its admin is the same person (by email).
    const dry = await cli.run(['import', '--workspace', 'acme', '--from', file, '--dry-run', ...target]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toEqual(['Would create 1 projects, 1 outcomes, 3 issues; already there: 1 members.']);
    const first = await cli.run(['import', '--workspace', 'acme', '--from', file, ...target, '--json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout[0] ?? '')).toMatchObject({
      format: 'jsonl',
      created: { projects: 1, issues: 3 },
    });
    const second = await cli.run(['import', '--workspace', 'acme', '--from', file, ...target]);
    expect(second.stdout).toEqual([
      'Created nothing; already there: 1 members, 1 projects, 1 outcomes, 3 issues.',
    ]);

    // Keys and numbers are kept, and the next issue of the project follows them.
    const tracker = createTracker({ storage: cli.storage('target.db'), rateLimit: false });
    const next = await tracker.run({ workspaceSlug: 'acme' }, async (ctx) => {
      const project = await ctx.tx.collections.projects.findOne(ctx.tenant.workspaceId, { key: 'APO' });
      return issues.create(ctx, { projectId: project?.id ?? '', title: 'Four' });
    });
    expect(next.key).toBe('APO-4');
  });

  it('writes the export on standard output when no file is given, and the summary on stderr', async () => {
    const cli = await populated();
    const exported = await cli.run(['export', '--workspace', 'acme', ...source]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toHaveLength(1 + 1 + 1 + 1 + 3 + 1);
    // Every family of the export, in the family list's order: those the workspace has none of say 0.
    const made: Record<string, number> = { members: 1, projects: 1, outcomes: 1, issues: 3 };
    const counts = transferFamilies.map(({ family }) => `${made[family] ?? 0} ${family}`);
    expect(counts.slice(0, 10).join(', ')).toBe(
      '1 members, 1 projects, 1 outcomes, 0 context, 0 decisions, 3 issues, 0 timeEntries, 0 comments, 0 issueRelations, 0 views',
    );
    expect(exported.stderr.at(-1)).toBe(`Exported 6 records (${counts.join(', ')}).`);
  });

  it('refuses a file with a bad line, naming the file, line and field, and writes nothing', async () => {
    const cli = await populated();
    const file = join(tempDir(), 'acme.jsonl');
    await cli.run(['export', '--workspace', 'acme', '--out', file, ...source]);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    lines[4] = lines[4]?.replace('"title":"One"', '"title":17') ?? '';
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(
      (await cli.run(['init', '--workspace', 'acme', '--admin-email', 'bob@acme.test', ...target])).code,
    ).toBe(0);
    const result = await cli.run(['import', '--workspace', 'acme', '--from', file, ...target]);
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toBe(`${file}:5: record.title: Invalid input: expected string, received number`);
    expect(result.stderr.at(-1)).toBe(`outcome-tracker import: 1 problem in ${file}: nothing was written`);
  });
});

describe('outcome-tracker import of other trackers', () => {
  const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);

  it('tells the format from the file, needs --project for issues of another tracker, and imports once', async () => {
    const cli = await populated();
    const noProject = await cli.run([
      'import',
      '--workspace',
      'acme',
      '--from',
      fixture('jira-issues.csv'),
      ...source,
    ]);
    // A missing flag is a usage error (docs/cli.md): exit 2, as for a flag every run needs.
    expect(noProject.code).toBe(2);
    expect(noProject.stderr[0]).toBe(
      'outcome-tracker import: missing required flag --project: --project <KEY> is needed to import jira issues, they go into that project',
    );
    for (const [file, format, issues] of [
      ['jira-issues.csv', 'jira', 4],
      ['linear-issues.csv', 'linear', 4],
      ['github-issues.json', 'github', 3],
      ['plain.csv', 'csv', 3],
    ] as const) {
      const args = [
        'import',
        '--workspace',
        'acme',
        '--from',
        fixture(file),
        '--project',
        'EXT',
        ...source,
        '--json',
      ];
      const first = await cli.run(args);
      expect(first.code, first.stderr.join('\n')).toBe(0);
      expect(JSON.parse(first.stdout[0] ?? '')).toMatchObject({ format, created: { issues } });
      const second = await cli.run(args);
      expect(JSON.parse(second.stdout[0] ?? '')).toMatchObject({ format, created: {}, existing: { issues } });
    }
  });

  it('prints every problem as file:line: column: message, and with --dry-run writes nothing', async () => {
    const cli = await populated();
    const file = join(tempDir(), 'issues.csv');
    writeFileSync(file, 'id,title,severity\nX-1,Fine,low\nX-2,,high\nX-3,Also fine,urgent\n');
    const result = await cli.run([
      'import',
      '--workspace',
      'acme',
      '--from',
      file,
      '--project',
      'EXT',
      '--dry-run',
      ...source,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      `${file}:3: title: Too small: expected string to have >=1 characters`,
      `${file}:4: severity: expected one of low, medium, high, critical`,
      `outcome-tracker import: 2 problems in ${file}: nothing was written`,
    ]);
    // With a problem nothing is written, so nothing would be created.
    expect(result.stdout).toEqual(['Would create nothing; already there: nothing.']);
  });

  it('reports rows that share an id as a problem naming both, and counts nothing created when refused', async () => {
    const cli = await populated();
    const file = join(tempDir(), 'twice.csv');
    for (const created of [true, false]) {
      writeFileSync(
        file,
        created
          ? 'id,title,created\nB-1,first,2026-10-01T09:00:00Z\nB-1,second,2026-10-02T09:00:00Z\n'
          : 'id,title\nB-1,first\nB-1,second\n',
      );
      const result = await cli.run([
        'import',
        '--workspace',
        'acme',
        '--from',
        file,
        '--project',
        'EXT',
        ...source,
        '--json',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toEqual([
        `${file}:3: id: the id B-1 is the id of line 2 too: each issue needs an id of its own`,
        `outcome-tracker import: 1 problem in ${file}: nothing was written`,
      ]);
      expect(JSON.parse(result.stdout[0] ?? '')).toMatchObject({ dryRun: false, created: {}, existing: {} });
    }
    const tracker = createTracker({ storage: cli.storage('source.db'), rateLimit: false });
    await tracker.run({ workspaceSlug: 'acme' }, async (ctx) => {
      expect((await projects.list(ctx, { sort: 'createdAt', limit: 50 })).data.map((p) => p.key)).toEqual([
        'APO',
      ]);
    });
  });
});
