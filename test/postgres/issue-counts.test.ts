import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { createTracker, outcomes, projects, tenancy } from '../../src/core/index.js';
import { issueSeverities, issueStatuses } from '../../src/core/model.js';
import { describeOnPostgres, dropSchema, freshSchema, requireDatabaseUrl } from '../support/postgres.js';

/**
 * The counts of issues the PostgreSQL adapter keeps on write (counts/issue-counts.ts): an
 * outcome's live issues by status and severity (migration 29) and a workspace's by project,
 * status, severity, their pairs (migration 30) and all three, and by label alone and with each
 * of those (migration 31), and all of them archived ones included (migration 32) equal, after
 * any sequence of issue writes, what
 * counting the issues gives: creates in two projects with and without an outcome, transitions, a
 * severity or an outcome changed or taken away, archives and unarchives, and an update whose
 * transaction had not read the issue first. The outcome's summary and the lists' totals read them.
 */

type Op =
  | {
      kind: 'create';
      project: number;
      outcome: number | null;
      severity: (typeof issueSeverities)[number];
      labels: string[];
      /** A title holding U+0000, which PostgreSQL's JSON cannot read. */
      nul: boolean;
    }
  | { kind: 'transition'; issue: number; to: (typeof issueStatuses)[number] }
  | {
      kind: 'patch';
      issue: number;
      severity?: (typeof issueSeverities)[number];
      outcome?: number | null;
      labels?: string[];
    }
  | { kind: 'archive' | 'unarchive'; issue: number }
  | { kind: 'unread update'; issue: number; outcome: number | null; labels: string[] }
  | { kind: 'unread delete'; issue: number };

const outcomeIndex = fc.option(fc.nat(1), { nil: null });
// Few labels, so that issues share them; a repeated one is stored once.
const labelSet = fc.array(fc.constantFrom('bug', 'ui', 'db'), { maxLength: 3 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    project: fc.nat(1),
    outcome: outcomeIndex,
    severity: fc.constantFrom(...issueSeverities),
    labels: labelSet,
    nul: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('transition' as const),
    issue: fc.nat(7),
    to: fc.constantFrom(...issueStatuses),
  }),
  fc.record(
    {
      kind: fc.constant('patch' as const),
      issue: fc.nat(7),
      severity: fc.constantFrom(...issueSeverities),
      outcome: outcomeIndex,
      labels: labelSet,
    },
    { requiredKeys: ['kind', 'issue'] },
  ),
  fc.record({ kind: fc.constantFrom('archive' as const, 'unarchive' as const), issue: fc.nat(7) }),
  fc.record({
    kind: fc.constant('unread update' as const),
    issue: fc.nat(7),
    outcome: outcomeIndex,
    labels: labelSet,
  }),
  fc.record({ kind: fc.constant('unread delete' as const), issue: fc.nat(7) }),
);

describeOnPostgres('outcome issue counts kept on write (PostgreSQL)', () => {
  let schema = '';
  afterEach(async () => {
    if (schema) await dropSchema(schema);
    schema = '';
  });

  it('equal the live issues of each outcome counted by status and severity, after any writes', async () => {
    schema = freshSchema();
    const storage = postgresStorage({ connectionString: requireDatabaseUrl(), schema });
    await storage.ready();
    const tracker = createTracker({ storage, rateLimit: false });
    const admin = new pg.Client({ connectionString: requireDatabaseUrl() });
    await admin.connect();
    try {
      const init = await storage.transaction((tx) =>
        tenancy.initWorkspace(
          { tx, ids: tracker.ids, now: Date.now() },
          { slug: 'counts', adminEmail: 'counts@example.com' },
        ),
      );
      const project = await tracker.run({ workspaceSlug: 'counts' }, (ctx) =>
        projects.create(ctx, { name: 'P' }),
      );
      const other = await tracker.run({ workspaceSlug: 'counts' }, (ctx) =>
        projects.create(ctx, { name: 'Other' }),
      );
      const outcomeIds: string[] = [];
      for (const title of ['First', 'Second'])
        outcomeIds.push(
          (
            await tracker.run({ workspaceSlug: 'counts' }, (ctx) =>
              outcomes.create(ctx, { projectId: project.id, title }),
            )
          ).id,
        );
      const outcomeOf = (index: number | null): string | null =>
        index === null ? null : (outcomeIds[index] ?? null);
      const call = async (method: string, path: string, body?: unknown, ifMatch?: number) => {
        const response = await tracker.handle({
          method,
          path: `/api/v1${path}`,
          headers: {
            authorization: `Bearer ${init.token}`,
            'content-type': 'application/json',
            ...(method === 'POST' && path === '/issues' ? { 'idempotency-key': randomUUID() } : {}),
            ...(ifMatch === undefined ? {} : { 'if-match': `"${ifMatch}"` }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: response.body ? JSON.parse(String(response.body)) : null };
      };
      const issues: string[] = [];
      const versionOf = async (id: string) => (await call('GET', `/issues/${id}`)).body.version as number;

      // Of the one account (on Citus a statement of one shard).
      const counted = async () =>
        (
          await admin.query(
            `SELECT outcome_id, status, severity, issues::int AS n FROM "${schema}".outcome_issue_counts WHERE account_id = $1 AND issues <> 0 ORDER BY 1, 2, 3`,
            [init.accountId],
          )
        ).rows;
      const truth = async () =>
        (
          await admin.query(
            `SELECT outcome_id, status, severity, COUNT(*)::int AS n FROM "${schema}".issues ` +
              'WHERE account_id = $1 AND outcome_id IS NOT NULL AND archived_at IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3',
            [init.accountId],
          )
        ).rows;

      // The list counts as kept, and as counting the live issues gives them.
      const listCounted = async () =>
        (
          await admin.query(
            `SELECT field, value, issues::int AS n FROM "${schema}".issue_list_counts WHERE account_id = $1 AND issues <> 0`,
            [init.accountId],
          )
        ).rows
          .map((row) => `${row.field}=${row.value}:${row.n}`)
          .sort();
      const listTruth = async () => {
        const { rows } = await admin.query(
          `SELECT project_id, status, severity, data FROM "${schema}".issues WHERE account_id = $1 AND archived_at IS NULL`,
          [init.accountId],
        );
        const n = new Map<string, number>();
        const add = (key: string) => n.set(key, (n.get(key) ?? 0) + 1);
        for (const { project_id: p, status: st, severity: sv, data } of rows) {
          for (const label of new Set(JSON.parse(data).labels as string[])) {
            add(`label=${label}`);
            add(`label+project_id=${label}\u001f${p}`);
            add(`label+status=${label}\u001f${st}`);
            add(`label+severity=${label}\u001f${sv}`);
          }
          add('=');
          add(`project_id=${p}`);
          add(`status=${st}`);
          add(`severity=${sv}`);
          add(`project_id+status=${p}\u001f${st}`);
          add(`project_id+severity=${p}\u001f${sv}`);
          add(`status+severity=${st}\u001f${sv}`);
          add(`project_id+status+severity=${p}\u001f${st}\u001f${sv}`);
        }
        // Each label's issues, archived ones too (for GET /labels).
        const all = await admin.query(`SELECT data FROM "${schema}".issues WHERE account_id = $1`, [
          init.accountId,
        ]);
        for (const { data } of all.rows) {
          add('all, archived too=');
          for (const label of new Set(JSON.parse(data).labels as string[]))
            add(`label, archived too=${label}`);
        }
        return [...n].map(([key, count]) => `${key}:${count}`).sort();
      };
      // A list's total as the API answers it, from the kept counts.
      const totalOf = async (query: string) =>
        (await call('GET', `/issues?limit=1&${query}`)).body.total as number;

      const apply = async (step: Op) => {
        if (step.kind === 'create') {
          const made = await call('POST', '/issues', {
            projectId: step.project === 0 ? project.id : other.id,
            title: step.nul ? 'Counted\u0000' : 'Counted',
            severity: step.severity,
            labels: step.labels,
            // The outcomes are the first project's: an issue of the other has none.
            ...(step.outcome === null || step.project !== 0 ? {} : { outcomeId: outcomeOf(step.outcome) }),
          });
          expect(made.status).toBe(201);
          issues.push(made.body.id);
          return;
        }
        const id = issues[step.issue % Math.max(1, issues.length)];
        if (id === undefined) return;
        if (step.kind === 'transition') await call('POST', `/issues/${id}/transition`, { to: step.to });
        else if (step.kind === 'patch')
          await call(
            'PATCH',
            `/issues/${id}`,
            {
              ...(step.severity === undefined ? {} : { severity: step.severity }),
              ...(step.outcome === undefined ? {} : { outcomeId: outcomeOf(step.outcome) }),
              ...(step.labels === undefined ? {} : { labels: step.labels }),
            },
            await versionOf(id),
          );
        else if (step.kind === 'archive' || step.kind === 'unarchive')
          await call('POST', `/issues/${id}/${step.kind}`, undefined, await versionOf(id));
        else if (step.kind === 'unread update') {
          // Read in one transaction, changed in another that has not read it: the adapter reads
          // where the issue counted itself.
          const read = await storage.transaction((tx) => tx.collections.issues.get(init.workspaceId, id));
          if (read === null) return;
          await storage.transaction((tx) =>
            tx.collections.issues.update(
              {
                ...read,
                outcomeId: outcomeOf(step.outcome),
                labels: step.labels,
                version: read.version + 1,
              },
              read.version,
            ),
          );
        } else if (step.kind === 'unread delete') {
          // Deleted by a transaction that has not read it: its labels and counts from its text.
          await storage.transaction((tx) => tx.collections.issues.delete(init.workspaceId, id));
          issues.splice(issues.indexOf(id), 1);
        }
      };
      // The label index as kept, and as the issues' labels give it.
      const indexed = async () =>
        (
          await admin.query(
            `SELECT i.id, l.label FROM "${schema}".issue_labels l JOIN "${schema}".issues i ` +
              'ON i.account_id = l.account_id AND i.pk = l.issue_pk WHERE l.account_id = $1',
            [init.accountId],
          )
        ).rows
          .map((row) => `${row.id}:${row.label}`)
          .sort();
      const indexTruth = async () =>
        (
          await admin.query(`SELECT id, data FROM "${schema}".issues WHERE account_id = $1`, [init.accountId])
        ).rows
          .flatMap((row) =>
            [...new Set(JSON.parse(row.data).labels as string[])].map((l) => `${row.id}:${l}`),
          )
          .sort();
      const orphans = async () =>
        Number(
          (
            await admin.query(
              `SELECT COUNT(*) AS n FROM "${schema}".issue_labels l WHERE l.account_id = $1 AND NOT EXISTS ` +
                `(SELECT 1 FROM "${schema}".issues i WHERE i.account_id = l.account_id AND i.pk = l.issue_pk)`,
              [init.accountId],
            )
          ).rows[0].n,
        );

      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
          for (const step of ops) await apply(step);
          expect(await counted()).toEqual(await truth());
          expect(await listCounted()).toEqual(await listTruth());
          expect(await indexed()).toEqual(await indexTruth());
          expect(await orphans()).toBe(0);
        }),
        { numRuns: 15 },
      );
      // The lists' totals read them: each equals counting the live issues it lists.
      const live = async (where: string, params: unknown[]) =>
        Number(
          (
            await admin.query(
              `SELECT COUNT(*) AS n FROM "${schema}".issues WHERE account_id = $1 AND archived_at IS NULL${where}`,
              [init.accountId, ...params],
            )
          ).rows[0].n,
        );
      expect(await totalOf('')).toBe(await live('', []));
      expect(await totalOf('status=open')).toBe(await live(' AND status = $2', ['open']));
      expect(await totalOf('status=open,blocked&severity=high')).toBe(
        await live(" AND status IN ('open', 'blocked') AND severity = $2", ['high']),
      );
      expect(await totalOf(`projectId=${other.id}&severity=low,medium`)).toBe(
        await live(" AND project_id = $2 AND severity IN ('low', 'medium')", [other.id]),
      );
      // A label carried, or not, alone or with one of them ...
      // (By the label index, which the property above holds equal to the issues' labels: a title
      // may hold a U+0000, which PostgreSQL's JSON cannot read.)
      const carries = (label: string) =>
        ` AND EXISTS (SELECT 1 FROM "${schema}".issue_labels l WHERE l.account_id = issues.account_id ` +
        `AND l.issue_pk = issues.pk AND l.label = '${label}')`;
      expect(await totalOf('labels=bug')).toBe(await live(carries('bug'), []));
      expect(await totalOf('labelsAny=ui&status=open,blocked')).toBe(
        await live(`${carries('ui')} AND status IN ('open', 'blocked')`, []),
      );
      expect(await totalOf(`labels=db&projectId=${other.id}`)).toBe(
        await live(`${carries('db')} AND project_id = $2`, [other.id]),
      );
      expect(await totalOf('labelsNone=bug&severity=high')).toBe(
        await live(` AND NOT (${carries('bug').slice(5)}) AND severity = $2`, ['high']),
      );
      expect(await totalOf(`query=${encodeURIComponent('-label:ui')}`)).toBe(
        await live(` AND NOT (${carries('ui').slice(5)})`, []),
      );
      expect(await totalOf('labels=nosuch&status=open')).toBe(0);
      // ... archived issues with the others, or alone, with no filter or one label ...
      const any = async (where: string, params: unknown[]) =>
        Number(
          (
            await admin.query(`SELECT COUNT(*) AS n FROM "${schema}".issues WHERE account_id = $1${where}`, [
              init.accountId,
              ...params,
            ])
          ).rows[0].n,
        );
      expect(await totalOf('archived=true')).toBe(await any('', []));
      expect(await totalOf('archived=only')).toBe(await any(' AND archived_at IS NOT NULL', []));
      expect(await totalOf('archived=true&labels=bug')).toBe(await any(carries('bug'), []));
      expect(await totalOf('archived=only&labelsAny=ui')).toBe(
        await any(`${carries('ui')} AND archived_at IS NOT NULL`, []),
      );
      expect(await totalOf('archived=true&status=open')).toBe(await any(' AND status = $2', ['open']));
      // (read from the count: one moved beside the adapter shows, and is put back)
      const move = (field: string, value: string, by: number) =>
        admin.query(
          `INSERT INTO "${schema}".issue_list_counts AS c (account_id, workspace_id, field, value, issues) ` +
            'VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id, workspace_id, field, value) ' +
            'DO UPDATE SET issues = c.issues + $5',
          [init.accountId, init.workspaceId, field, value, by],
        );
      const moveAll = (by: number) => move('all, archived too', '', by);
      // (two issues at least: a page of one is then full, the core having asked for one more, and
      // its total is read rather than its rows counted)
      for (const title of ['Counted', 'Counted too'])
        expect((await call('POST', '/issues', { projectId: other.id, title })).status).toBe(201);
      await moveAll(1000);
      expect(await totalOf('archived=true')).toBe((await any('', [])) + 1000);
      await moveAll(-1000);
      // (with a filter: the live issues' count, and the archived ones counted)
      await move('status', 'open', 1000);
      expect(await totalOf('archived=true&status=open')).toBe(
        (await any(' AND status = $2', ['open'])) + 1000,
      );
      await move('status', 'open', -1000);
      // ... all three of them (kept too) ...
      expect(await totalOf(`projectId=${project.id}&status=open&severity=high`)).toBe(
        await live(' AND project_id = $2 AND status = $3 AND severity = $4', [project.id, 'open', 'high']),
      );
      expect(await totalOf(`projectId=${project.id},${other.id}&status=open,blocked&severity=high`)).toBe(
        await live(" AND status IN ('open', 'blocked') AND severity = $2", ['high']),
      );
      // ... and a list filtered by two labels, or a label and two of them, counts its rows.
      expect(await totalOf(`labels=bug&status=open&severity=high`)).toBe(
        await live(`${carries('bug')} AND status = $2 AND severity = $3`, ['open', 'high']),
      );
      expect(await totalOf('labels=bug,ui&status=open')).toBe(
        await live(`${carries('bug')}${carries('ui')} AND status = $2`, ['open']),
      );
      // The summary reads them: its counts by status and severity are the issues' ...
      const summaryOf = async () =>
        (await call('GET', `/outcomes/${outcomeIds[0]}/summary`)).body.issues as {
          total: number;
          byStatus: Record<string, number>;
          bySeverity: Record<string, number>;
        };
      const first = (await truth()).filter((row) => row.outcome_id === outcomeIds[0]);
      const expected = {
        total: 0,
        byStatus: {} as Record<string, number>,
        bySeverity: {} as Record<string, number>,
      };
      for (const status of issueStatuses) expected.byStatus[status] = 0;
      for (const severity of issueSeverities) expected.bySeverity[severity] = 0;
      for (const row of first) {
        expected.total += row.n;
        expected.byStatus[row.status] = (expected.byStatus[row.status] ?? 0) + row.n;
        expected.bySeverity[row.severity] = (expected.bySeverity[row.severity] ?? 0) + row.n;
      }
      expect(await summaryOf()).toEqual(expected);
      // ... read from the counts, not from the issues: a count changed beside the adapter shows.
      await admin.query(
        `INSERT INTO "${schema}".outcome_issue_counts (account_id, workspace_id, outcome_id, status, severity, issues) ` +
          "VALUES ($1, $2, $3, 'closed', 'low', 1000) ON CONFLICT (account_id, workspace_id, outcome_id, status, severity) " +
          'DO UPDATE SET issues = outcome_issue_counts.issues + 1000',
        [init.accountId, init.workspaceId, outcomeIds[0]],
      );
      expect((await summaryOf()).total).toBe(expected.total + 1000);
    } finally {
      await admin.end();
      await tracker.close();
    }
  }, 120_000);
});
