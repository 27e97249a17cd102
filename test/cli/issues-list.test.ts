import { describe, expect, it } from 'vitest';
import { create as createIssue } from '../../src/core/families/issues/api.js';
import { createTracker } from '../../src/core/tracker.js';
import { memoryCli } from './memory-io.js';

const db = ['--db', 'tracker.db'];

/** A workspace `acme` with project APO and three issues: one labelled bug. */
async function acmeWithIssues() {
  const cli = memoryCli();
  await cli.run(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', ...db]);
  const project = JSON.parse(
    (await cli.run(['projects', 'create', '--workspace', 'acme', '--name', 'Apollo', ...db, '--json']))
      .stdout[0] ?? '',
  );
  const tracker = createTracker({ storage: cli.storage('tracker.db'), rateLimit: false });
  const add = (title: string, fields: Record<string, unknown> = {}) =>
    tracker.run({ workspaceSlug: 'acme' }, (ctx) =>
      createIssue(ctx, { projectId: project.id, title, ...fields } as Parameters<typeof createIssue>[1]),
    );
  await add('Login fails on Safari', { labels: ['bug'], severity: 'high' });
  await add('Dark mode');
  await add('Old crash', { severity: 'low' });
  return cli;
}

describe('outcome-tracker issues list', () => {
  it('lists what GET /issues?query= lists, with --json the same page shape', async () => {
    const cli = await acmeWithIssues();
    const args = ['issues', 'list', '--workspace', 'acme', '--query', 'status:open label:bug', ...db];
    const page = JSON.parse((await cli.run([...args, '--json'])).stdout[0] ?? '');
    expect(page.total).toBe(1);
    expect(page.data.map((issue: { title: string }) => issue.title)).toEqual(['Login fails on Safari']);
    expect(page.nextCursor).toBeNull();

    const text = await cli.run(args);
    expect(text.code).toBe(0);
    expect(text.stdout).toEqual(['APO-1\topen\thigh\tLogin fails on Safari', '1 of 1 issue']);
  });

  it('pages with --limit and --cursor', async () => {
    const cli = await acmeWithIssues();
    const args = ['issues', 'list', '--workspace', 'acme', '--query=-label:bug', ...db, '--json'];
    const first = JSON.parse((await cli.run([...args, '--limit', '1'])).stdout[0] ?? '');
    expect(first.total).toBe(2);
    expect(first.data).toHaveLength(1);
    const second = JSON.parse(
      (await cli.run([...args, '--limit', '1', '--cursor', first.nextCursor])).stdout[0] ?? '',
    );
    expect(second.data).toHaveLength(1);
    expect(second.data[0].id).not.toBe(first.data[0].id);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a malformed query with exit 2, naming the term and its offset', async () => {
    const cli = await acmeWithIssues();
    const result = await cli.run([
      'issues',
      'list',
      '--workspace',
      'acme',
      '--query',
      'status:open colour:red',
      ...db,
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toEqual([]);
    expect(result.stderr[0]).toMatch(
      /^outcome-tracker issues list: --query: unknown key "colour".* \(term "colour:red" at offset 12\)$/,
    );
  });
});
