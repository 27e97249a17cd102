/**
 * Imports of other trackers' files. The fixtures in ./fixtures are written from each product's
 * documented format:
 * - github-issues.json: the response of GitHub's REST API "List repository issues"
 *   (GET /repos/{owner}/{repo}/issues, docs.github.com/rest/issues/issues#list-repository-issues),
 *   two pages as `gh api repos/O/R/issues --paginate` writes them (one array after the other); a
 *   pull request among them (the API lists pull requests as issues with a `pull_request` key).
 * - jira-issues.csv: Jira Cloud's issue export "Export CSV (all fields)" (support.atlassian.com,
 *   "Export issues from Jira Cloud to CSV"): CRLF line ends, one column per value of a multi-valued
 *   field (two Labels columns), quoted cells with line breaks and doubled quotes, dates in Jira's
 *   default format `dd/MMM/yy h:mm a`.
 * - linear-issues.csv: Linear's "Export CSV" of issues (linear.app/docs/exporting-data), its
 *   column set (ID, Team, Title, Description, Status, Estimate, Priority, …, Created, Updated,
 *   Started, Triaged, Completed, Canceled, …, Parent issue, …), labels comma-separated in one cell.
 * - plain.csv: the plain CSV whose columns docs/import.md documents.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ExternalRef,
  formatSource,
  type ImportFormat,
  type Issue,
  type NumberedLine,
  runImport,
  type Storage,
} from '../../src/core/index.js';
import { inWorld } from '../properties/support.js';
import { adaptersUnderTest, tempDir } from '../support/adapters.js';

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);

const linesOf = (path: string) =>
  async function* (): AsyncIterable<NumberedLine> {
    let line = 0;
    for (const text of readFileSync(path, 'utf8').split(/\r?\n/)) yield { line: ++line, text };
  };

const importFile = (storage: Storage, slug: string, format: ImportFormat, path: string, dryRun = false) =>
  runImport(storage, formatSource(format, { file: path, lines: linesOf(path), project: 'EXT' }), {
    workspace: slug,
    file: path,
    dryRun,
  });

/** The workspace's issues of project EXT, oldest first, as stored. */
async function extIssues(storage: Storage, workspaceId: string): Promise<Issue[]> {
  return storage.transaction(async (tx) => {
    const project = await tx.collections.projects.findOne(workspaceId, { key: 'EXT' });
    if (!project) return [];
    const { rows } = await tx.collections.issues.list({
      workspaceId,
      where: { projectId: project.id },
      limit: 100,
    });
    return rows.reverse();
  });
}

const github = (n: number) => ({
  source: 'github',
  id: `octo-org/apollo#${n}`,
  url: `https://github.com/octo-org/apollo/issues/${n}`,
});

/** The issues of Jira's CSV export and of its search answer (the same four issues). */
const jiraIssues = (url: boolean): Partial<Issue>[] =>
  [
    {
      title: 'Checkout times out',
      status: 'in_progress',
      severity: 'critical',
      labels: ['payments', 'backend'],
      description: 'The call to the gateway takes 30 s.\nIt should fail after 5 s, with "Try again".',
      createdAt: '2026-10-01T09:05:00.000Z',
      updatedAt: '2026-10-02T16:40:00.000Z',
    },
    {
      title: 'Update the terms page',
      status: 'resolved',
      severity: 'low',
      labels: [],
      resolvedAt: '2026-10-04T13:15:00.000Z',
    },
    {
      title: 'Dark mode',
      status: 'closed',
      severity: 'medium',
      labels: ['ui'],
      createdAt: '2026-10-05T12:00:00.000Z',
    },
    { title: 'Vendor API is down', status: 'blocked', severity: 'high' },
  ].map((issue, i) => {
    const id = `SHOP-${12 + i}`;
    return {
      ...issue,
      external: { source: 'jira', id, ...(url ? { url: `https://acme.atlassian.net/browse/${id}` } : {}) },
    } as Partial<Issue>;
  });

const expected: Record<
  string,
  { format: Exclude<ImportFormat, 'jsonl'>; file: string; issues: Partial<Issue>[] }
> = {
  github: {
    format: 'github',
    file: 'github-issues.json',
    issues: [
      {
        title: 'Login button does nothing on Safari',
        status: 'open',
        severity: 'high',
        labels: ['bug', 'priority: high'],
        description: 'Steps:\n1. Open /login\n2. Press "Sign in"',
        createdAt: '2026-10-01T09:00:00.000Z',
        external: github(1),
      },
      {
        title: 'Crash on launch {when offline}',
        status: 'resolved',
        severity: 'critical',
        resolvedAt: '2026-10-05T12:30:00.000Z',
        assigneeId: null,
        description: null,
        external: github(3),
      },
      {
        title: 'Support Internet Explorer',
        status: 'closed',
        severity: 'medium',
        labels: ['wontfix'],
        resolvedAt: null,
        updatedAt: '2026-10-06T00:00:00.000Z',
        external: github(4),
      },
    ],
  },
  jira: { format: 'jira', file: 'jira-issues.csv', issues: jiraIssues(false) },
  'jira (REST search JSON)': { format: 'jira', file: 'jira-search.json', issues: jiraIssues(true) },
  linear: {
    format: 'linear',
    file: 'linear-issues.csv',
    issues: [
      {
        title: 'Rate limit the search endpoint',
        status: 'in_progress',
        severity: 'critical',
        labels: ['Backend', 'Security'],
        description: 'Search is open to scraping.\n\nLimit it per token.',
        external: { source: 'linear', id: 'ENG-101' },
      },
      {
        title: 'Write the changelog',
        status: 'resolved',
        severity: 'low',
        labels: ['Docs'],
        resolvedAt: '2026-10-04T08:00:00.000Z',
        external: { source: 'linear', id: 'ENG-102' },
      },
      {
        title: 'Old onboarding flow',
        status: 'closed',
        severity: 'medium',
        updatedAt: '2026-10-06T09:00:00.000Z',
        external: { source: 'linear', id: 'ENG-103' },
      },
      {
        title: 'Try the new charts library',
        status: 'open',
        severity: 'medium',
        external: { source: 'linear', id: 'ENG-104' },
      },
    ],
  },
  csv: {
    format: 'csv',
    file: 'plain.csv',
    issues: [
      {
        title: 'Set up CI',
        status: 'resolved',
        severity: 'high',
        labels: ['infra', 'ci'],
        resolvedAt: '2026-10-02T09:00:00.000Z',
        external: { source: 'csv', id: 'A-1' },
      },
      {
        title: 'Choose a name, finally',
        status: 'open',
        severity: 'low',
        description: 'Shortlist: "Apollo", "Gemini"',
        external: { source: 'csv', id: 'A-2' },
      },
      {
        title: 'Write the README',
        status: 'in_progress',
        severity: 'medium',
        labels: ['docs'],
        external: { source: 'csv', id: 'A-3' },
      },
    ],
  },
};

describe.each(adaptersUnderTest)('imports of other trackers on $name storage', (adapter) => {
  for (const [name, { format, file, issues }] of Object.entries(expected)) {
    it(`imports ${name}'s ${file} into a new project, mapping status, severity, labels, assignee and dates, keeping where each issue came from, and a second import creates nothing`, async () => {
      await inWorld(adapter, async (world) => {
        const storage = world.tracker.storage;
        // The member the files assign to, by email.
        const ada = await world.call('POST', '/members', {
          body: { email: 'ada@acme.test', role: 'member' },
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
        const report = await importFile(storage, world.ws.slug, format, fixture(file));
        expect(report.problems).toEqual([]);
        expect(report.created).toEqual({ projects: 1, issues: issues.length });

        const stored = await extIssues(storage, world.ws.workspaceId);
        expect(stored).toHaveLength(issues.length);
        stored.forEach((issue, i) => {
          expect(issue).toMatchObject(issues[i] ?? {});
          expect(issue.key).toBe(`EXT-${i + 1}`);
        });
        // The first issue of each file is assigned to the member with that email (GitHub: when the user object carries one).
        expect(stored[0]?.assigneeId).toBe(ada.json.id);
        // Each issue is found by its id in the other tracker, as read and as listed.
        for (const issue of stored) {
          const external = issue.external as ExternalRef;
          const listed = await world.call('GET', '/issues', { query: { externalId: external.id } });
          expect(listed.json.data).toEqual([expect.objectContaining({ id: issue.id, external })]);
          expect(listed.json.total).toBe(1);
          const read = await world.call('GET', `/issues/${issue.id}`);
          expect(read.json.external).toEqual(external);
        }
        const bySource = await world.call('GET', '/issues', {
          query: { externalSource: stored[0]?.external?.source ?? '', limit: '100' },
        });
        expect(bySource.json.total).toBe(issues.length);

        // Created through the API's operations: each issue announced, and its status change too.
        const types = (await world.call('GET', '/signals', { query: { limit: '200' } })).json.data.map(
          (s: { type: string }) => s.type,
        );
        expect(types.filter((t: string) => t === 'issue.created')).toHaveLength(issues.length);
        expect(types.filter((t: string) => t === 'issue.status_changed')).toHaveLength(
          issues.filter((i) => i.status !== 'open').length,
        );

        const again = await importFile(storage, world.ws.slug, format, fixture(file));
        expect(again.created).toEqual({});
        expect(again.existing).toEqual({ projects: 1, issues: issues.length });
        expect(await extIssues(storage, world.ws.workspaceId)).toEqual(stored);
      });
    });
  }

  it('reports the line and column of a bad row, and a dry run writes nothing', async () => {
    await inWorld(adapter, async (world) => {
      await world.call('POST', '/members', {
        body: { email: 'ada@acme.test', role: 'member' },
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      const dir = tempDir();
      const jira = join(dir, 'jira.csv');
      writeFileSync(
        jira,
        readFileSync(fixture('jira-issues.csv'), 'utf8').replace('Low,Done', 'Whenever,Done'),
      );
      const csv = join(dir, 'plain.csv');
      writeFileSync(
        csv,
        readFileSync(fixture('plain.csv'), 'utf8')
          .replace('in_progress', 'doing')
          .replace('ada@acme.test', 'nobody@acme.test'),
      );
      const github = join(dir, 'github.json');
      writeFileSync(
        github,
        readFileSync(fixture('github-issues.json'), 'utf8').replace(
          '"title": "Support Internet Explorer"',
          '"title": 4',
        ),
      );
      for (const dryRun of [true, false]) {
        const storage = world.tracker.storage;
        expect((await importFile(storage, world.ws.slug, 'jira', jira, dryRun)).problems).toEqual([
          { file: jira, line: 4, field: 'Priority', message: 'unknown priority "Whenever"' },
        ]);
        expect((await importFile(storage, world.ws.slug, 'csv', csv, dryRun)).problems).toEqual([
          {
            file: csv,
            line: 2,
            field: 'assignee',
            message: 'nobody@acme.test is not a member of the workspace: add them first',
          },
          {
            file: csv,
            line: 4,
            field: 'status',
            message: 'expected one of open, in_progress, blocked, resolved, closed',
          },
        ]);
        expect((await importFile(storage, world.ws.slug, 'github', github, dryRun)).problems).toEqual([
          { file: github, line: 89, field: 'title', message: expect.any(String) },
        ]);
        expect(await extIssues(storage, world.ws.workspaceId)).toEqual([]);
      }
      const dry = await importFile(
        world.tracker.storage,
        world.ws.slug,
        'linear',
        fixture('linear-issues.csv'),
        true,
      );
      expect(dry).toMatchObject({ dryRun: true, problems: [], created: { projects: 1, issues: 4 } });
      expect(await extIssues(world.tracker.storage, world.ws.workspaceId)).toEqual([]);
    });
  });
});
