import { z } from 'zod';
import {
  type DecisionStatus,
  decisionStatuses,
  type IssueSeverity,
  type IssueStatus,
  issueSeverities,
  issueStatuses,
} from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { CollectionName, CollectionRows, ListQuery } from '../../port/index.js';
import { sha256Hex } from '../../sha256.js';
import { getOr404 } from '../shared/operations.js';
import { idOf, timestampOut } from '../shared/schema.js';

const count = z.number().int().min(0);
const countsOf = <T extends string>(keys: readonly [T, ...T[]]) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, count])) as Record<T, typeof count>);

/** Issues of the outcome that block it, newest first: at most this many are named. */
export const namedBlockers = 20;

/** Where an outcome stands, read in one transaction. */
export const outcomeSummarySchema = z.strictObject({
  outcomeId: idOf('out'),
  issues: z.strictObject({
    total: count,
    byStatus: countsOf(issueStatuses),
    bySeverity: countsOf(issueSeverities),
  }),
  openBlockers: z
    .strictObject({
      total: count,
      issues: z
        .array(z.strictObject({ id: idOf('iss'), key: z.string(), title: z.string() }))
        .describe(`The newest ${namedBlockers}`),
    })
    .describe(
      "Issues of the outcome in status blocked. `blocks` relations are not counted here: an issue's `blockedBy` says how many issues block it",
    ),
  time: z.strictObject({
    totalMinutes: count,
    byUser: z.record(z.string(), count).describe('Minutes by the id of the user who logged them'),
    byWeek: z.record(z.string(), count).describe('Minutes by ISO week of the entry’s date, e.g. `2026-W48`'),
  }),
  decisions: z.strictObject({ total: count, byStatus: countsOf(decisionStatuses) }),
  lastActivityAt: timestampOut.describe(
    'The latest updatedAt of the outcome, its issues, its time entries and its decisions',
  ),
});
export type OutcomeSummary = z.output<typeof outcomeSummarySchema>;

/** `2026-W48`: the ISO 8601 week of a calendar day (weeks start on Monday; week 1 holds January 4th). */
export function isoWeek(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const weekday = (day.getUTCDay() + 6) % 7;
  // The Thursday of the day's week decides the year the week belongs to.
  const thursday = new Date(day.getTime() + (3 - weekday) * 86_400_000);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

const zeros = <T extends string>(keys: readonly T[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<T, number>;

/** Every row of a collection of the workspace whose fields equal `where`, page by page (newest first). */
export async function* allRows<Name extends CollectionName>(
  ctx: OperationContext,
  name: Name,
  where: ListQuery<Name>['where'],
): AsyncIterable<CollectionRows[Name]> {
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const { rows } = await ctx.tx.collections[name].list({
      workspaceId: ctx.tenant.workspaceId,
      where,
      limit: 500,
      ...(after ? { after } : {}),
    });
    yield* rows as CollectionRows[Name][];
    const last = rows.at(-1);
    if (!last || rows.length < 500) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * The outcome's issues by status and severity, its open blockers, the minutes logged against it
 * (in all, by user, by ISO week), its decisions by status and its last activity: one read of one
 * transaction, so the numbers agree with each other (and each with the list endpoints' totals
 * at that moment). Its ETag is a digest of the answer, so it changes exactly when the answer does.
 */
export async function outcomeSummary(ctx: OperationContext, id: string): Promise<OutcomeSummary> {
  const outcome = await getOr404(ctx, 'outcomes', id, 'outcome');
  let lastActivityAt = outcome.updatedAt;
  const later = (at: string) => {
    if (at > lastActivityAt) lastActivityAt = at;
  };

  const workspaceId = ctx.tenant.workspaceId;
  const issues = { total: 0, byStatus: zeros(issueStatuses), bySeverity: zeros(issueSeverities) };
  // Archived issues are left out, as lists leave them out by default: the counts are the lists'.
  // Counted by status and severity in the database, not read row by row.
  const live = { outcomeId: id, archivedAt: null };
  for (const group of await ctx.tx.collections.issues.tally(workspaceId, live, ['status', 'severity'])) {
    const [status, severity] = group.values as [IssueStatus, IssueSeverity];
    issues.total += group.count;
    issues.byStatus[status] += group.count;
    issues.bySeverity[severity] += group.count;
    later(group.latestUpdatedAt);
  }
  const blockers: OutcomeSummary['openBlockers'] = { total: issues.byStatus.blocked, issues: [] };
  if (blockers.total > 0) {
    // The newest first, as the list of the outcome's blocked issues shows them.
    const { rows } = await ctx.tx.collections.issues.list({
      workspaceId,
      where: { ...live, status: 'blocked' },
      limit: namedBlockers,
      // Counted by the tally already.
      withoutTotal: true,
    });
    blockers.issues = rows.map((issue) => ({ id: issue.id, key: issue.key, title: issue.title }));
  }

  const time = {
    totalMinutes: 0,
    byUser: {} as Record<string, number>,
    byWeek: {} as Record<string, number>,
  };
  for await (const entry of allRows(ctx, 'timeEntries', { outcomeId: id })) {
    time.totalMinutes += entry.minutes;
    time.byUser[entry.userId] = (time.byUser[entry.userId] ?? 0) + entry.minutes;
    const week = isoWeek(entry.date);
    time.byWeek[week] = (time.byWeek[week] ?? 0) + entry.minutes;
    later(entry.updatedAt);
  }

  const decisions = { total: 0, byStatus: zeros(decisionStatuses) };
  for (const group of await ctx.tx.collections.decisions.tally(workspaceId, { outcomeId: id }, ['status'])) {
    const [status] = group.values as [DecisionStatus];
    decisions.total += group.count;
    decisions.byStatus[status] += group.count;
    later(group.latestUpdatedAt);
  }

  return {
    outcomeId: outcome.id,
    issues,
    openBlockers: blockers,
    time: { totalMinutes: time.totalMinutes, byUser: sorted(time.byUser), byWeek: sorted(time.byWeek) },
    decisions,
    lastActivityAt,
  };
}

/** The object with its keys in order, so equal summaries serialize (and digest) equally. */
const sorted = (record: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** A strong ETag of the summary: a digest of its JSON. */
export const summaryEtag = (summary: OutcomeSummary): string =>
  `"${sha256Hex(JSON.stringify(summary)).slice(0, 32)}"`;
