// A million issues (or `count`) in one workspace of a benchmark schema (postgres-schema.js),
// distributed as bench/seed.js distributes them on SQLite: 90% in one project, statuses and
// severities in turn, one issue in ten labelled `x` (resolved ones only), one in a thousand `rare`
// too, one in fifty due on a day of 2026. The issues are copied by SQL from one created through
// the API (its stored text with the fields changed), with their label index and the counts the
// adapter keeps, then VACUUM ANALYZE as autovacuum would.
import { projects } from '../dist/core/index.js';

/** The bench workspace seeded with `count` issues: its token and projects. */
export async function seedIssues({ schema, admin, tracker, token, createIssue, recount }, count) {
  const big = await tracker.run({ workspaceSlug: 'bench' }, (ctx) => projects.create(ctx, { name: 'Big' }));
  const small = await tracker.run({ workspaceSlug: 'bench' }, (ctx) =>
    projects.create(ctx, { name: 'Small' }),
  );
  const seedId = await createIssue({ projectId: big.id, title: 'Seeded issue 0 about things' });
  const started = Date.now();
  const status = "(ARRAY['open','in_progress','blocked','resolved','closed'])[1 + g % 5]";
  const severity = "(ARRAY['low','medium','high','critical'])[1 + g % 4]";
  const project = 'CASE WHEN g % 10 = 0 THEN $2 ELSE s.project_id END';
  const due = "CASE WHEN g % 50 = 7 THEN to_char(date '2026-01-01' + (g % 365), 'YYYY-MM-DD') END";
  const title = "'Seeded issue ' || g || ' about things'";
  await admin.query(
    `INSERT INTO "${schema}".issues (id, workspace_id, created_at, updated_at, version, project_id, outcome_id, ` +
      'status, severity, assignee_id, number, search_text, data, parent_id, archived_at, title, account_id, ' +
      'external_source, external_id, due_on, estimate, blocked_by) ' +
      `SELECT s.id || '_' || g, s.workspace_id, c.at, c.at, 1, ${project}, NULL, ${status}, ${severity}, NULL, ` +
      `g + 1, lower(${title}), (s.data::jsonb || jsonb_build_object('id', s.id || '_' || g, 'number', g + 1, ` +
      `'title', ${title}, 'status', ${status}, 'severity', ${severity}, 'labels', CASE WHEN g % 1000 = 3 ` +
      `THEN '["x","rare"]'::jsonb WHEN g % 10 = 3 THEN '["x"]'::jsonb ELSE '[]'::jsonb END, 'dueOn', ${due}, ` +
      `'projectId', ${project}, 'createdAt', c.at, 'updatedAt', c.at))::text, NULL, NULL, ${title}, ` +
      `s.account_id, NULL, NULL, ${due}, NULL, 0 ` +
      `FROM "${schema}".issues s, generate_series(1, $3::int) g, LATERAL (SELECT to_char(timestamp '2025-01-01' ` +
      `+ g * interval '10 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) c WHERE s.id = $1`,
    [seedId, small.id, count - 1],
  );
  await admin.query(
    `INSERT INTO "${schema}".issue_labels (account_id, workspace_id, label, issue_pk) ` +
      `SELECT i.account_id, i.workspace_id, l.label, i.pk FROM "${schema}".issues i, ` +
      "LATERAL jsonb_array_elements_text(i.data::jsonb -> 'labels') AS l(label) ON CONFLICT DO NOTHING",
  );
  // Inserted beside the adapter: the counts its writes keep are made again, as the migrations
  // that made them count the issues there are (their time is theirs at an upgrade).
  const counting = Date.now();
  await recount();
  console.log(`counted again in ${((Date.now() - counting) / 1000).toFixed(1)} s`);
  await admin.query(`VACUUM ANALYZE "${schema}".issues, "${schema}".issue_labels`);
  console.log(`seeded ${count} issues in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { token: token, projectId: big.id, smallProjectId: small.id };
}
