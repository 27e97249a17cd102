import type { Decision, Issue, OperationContext, Outcome } from '../core/extension-kit.js';
import { allRows, type OutcomeSummary, outcomeSummary } from '../core/extension-kit.js';

/** How many outcomes one page of the outcomes list shows. */
export const outcomesPerPage = 50;

/** An outcome as the list shows it: its progress (resolved of all its issues), due day and owner. */
export interface OutcomeRow {
  outcome: Outcome;
  issues: number;
  resolved: number;
  ownerEmail: string | null;
}

/**
 * One page of the workspace's outcomes (archived ones left out, as the API's list leaves them),
 * newest first, after `after`, each with its issue counts: two counts an outcome, which the
 * adapters answer from their indexes, never a read of every issue.
 */
export async function outcomeRows(
  ctx: OperationContext,
  after: { createdAt: string; id: string } | undefined,
): Promise<{ rows: OutcomeRow[]; total: number; next: { createdAt: string; id: string } | null }> {
  const { workspaceId } = ctx.tenant;
  const page = await ctx.tx.collections.outcomes.list({
    workspaceId,
    where: { archivedAt: null },
    limit: outcomesPerPage + 1,
    ...(after ? { after } : {}),
  });
  const shown = page.rows.slice(0, outcomesPerPage);
  const emails = new Map<string, string | null>();
  const rows: OutcomeRow[] = [];
  for (const outcome of shown) {
    const of = { outcomeId: outcome.id, archivedAt: null };
    const issues = await ctx.tx.collections.issues.count(workspaceId, of);
    const resolved = await ctx.tx.collections.issues.count(workspaceId, { ...of, status: 'resolved' });
    rows.push({ outcome, issues, resolved, ownerEmail: await emailOf(ctx, emails, outcome.ownerId) });
  }
  const last = shown.at(-1);
  return {
    rows,
    total: page.total,
    next: page.rows.length > outcomesPerPage && last ? { createdAt: last.createdAt, id: last.id } : null,
  };
}

async function emailOf(ctx: OperationContext, known: Map<string, string | null>, userId: string | null) {
  if (userId === null) return null;
  if (!known.has(userId)) known.set(userId, (await ctx.tx.tenancy.getUser(userId))?.email ?? null);
  return known.get(userId) ?? null;
}

/** One day of the burn-up: how many of the outcome's issues existed, and how many were resolved, by its end. */
export interface BurnUpDay {
  day: string;
  created: number;
  resolved: number;
}

/** An issue blocked by another that is still open: `blocker` blocks `blocked`. */
export interface OpenBlock {
  blocker: Pick<Issue, 'id' | 'key' | 'title' | 'status'>;
  blocked: Pick<Issue, 'id' | 'key' | 'title'>;
}

/** Everything the outcome page shows, read in the page's one transaction. */
export interface OutcomeDetail {
  outcome: Outcome;
  ownerEmail: string | null;
  /** The API's summary of the outcome: the page shows its numbers. */
  summary: OutcomeSummary;
  burnUp: BurnUpDay[];
  /** Open issues blocking the outcome's issues through `blocks` relations, at most `shownBlocks`. */
  blocks: OpenBlock[];
  latestDecisions: Decision[];
}

/** How many relation blocks and decisions the page names. */
export const shownBlocks = 20;
export const shownDecisions = 5;
const dayMs = 86_400_000;
/** The burn-up's longest span: its last year, so an old outcome's chart stays a year of days. */
const maxDays = 366;

/**
 * The outcome's page data: the summary (the same function `GET /outcomes/{id}/summary` answers
 * with), the burn-up of its issues per day from the day it began to today, the open issues that
 * block its issues, and its latest decisions.
 */
export async function outcomeDetail(
  ctx: OperationContext,
  id: string,
  nowMs: number,
): Promise<OutcomeDetail | null> {
  const { workspaceId } = ctx.tenant;
  const outcome = await ctx.tx.collections.outcomes.get(workspaceId, id);
  if (!outcome) return null;
  const summary = await outcomeSummary(ctx, id);

  const createdOn = new Map<string, number>();
  const resolvedOn = new Map<string, number>();
  const blockedIssues: Issue[] = [];
  // As the summary counts them: archived issues are left out.
  for await (const issue of allRows(ctx, 'issues', { outcomeId: id, archivedAt: null })) {
    bump(createdOn, issue.createdAt.slice(0, 10));
    if (issue.status === 'resolved' && issue.resolvedAt) bump(resolvedOn, issue.resolvedAt.slice(0, 10));
    if (issue.blockedBy > 0 && issue.status !== 'resolved' && issue.status !== 'closed')
      blockedIssues.push(issue);
  }
  const burnUp = days(
    outcome.createdAt.slice(0, 10),
    new Date(nowMs).toISOString().slice(0, 10),
    createdOn,
    resolvedOn,
  );

  const blocks: OpenBlock[] = [];
  for (const blocked of blockedIssues) {
    if (blocks.length >= shownBlocks) break;
    const relations = await ctx.tx.collections.issueRelations.list({
      workspaceId,
      where: { targetId: blocked.id, type: 'blocks' },
      limit: shownBlocks,
    });
    for (const relation of relations.rows) {
      const blocker = await ctx.tx.collections.issues.get(workspaceId, relation.sourceId);
      if (!blocker || blocker.status === 'resolved' || blocker.status === 'closed') continue;
      if (blocks.length >= shownBlocks) break;
      blocks.push({
        blocker: { id: blocker.id, key: blocker.key, title: blocker.title, status: blocker.status },
        blocked: { id: blocked.id, key: blocked.key, title: blocked.title },
      });
    }
  }

  const decisions = await ctx.tx.collections.decisions.list({
    workspaceId,
    where: { outcomeId: id },
    limit: shownDecisions,
  });
  return {
    outcome,
    ownerEmail: await emailOf(ctx, new Map(), outcome.ownerId),
    summary,
    burnUp,
    blocks,
    latestDecisions: decisions.rows,
  };
}

const bump = (counts: Map<string, number>, day: string) => counts.set(day, (counts.get(day) ?? 0) + 1);

/**
 * Running totals per day from `first` to `last` (both YYYY-MM-DD): the issues created and resolved
 * by each day's end, counting those of days before the span in its first day.
 */
export function days(
  first: string,
  last: string,
  createdOn: ReadonlyMap<string, number>,
  resolvedOn: ReadonlyMap<string, number>,
): BurnUpDay[] {
  const end = Date.parse(`${last}T00:00:00Z`);
  const start = Math.max(Date.parse(`${first}T00:00:00Z`), end - (maxDays - 1) * dayMs);
  const startDay = new Date(Math.min(start, end)).toISOString().slice(0, 10);
  let created = 0;
  let resolved = 0;
  // Issues dated before the span (created before the outcome, or before its last year) open it.
  for (const [day, n] of createdOn) if (day < startDay) created += n;
  for (const [day, n] of resolvedOn) if (day < startDay) resolved += n;
  const out: BurnUpDay[] = [];
  for (let at = Math.min(start, end); at <= end; at += dayMs) {
    const day = new Date(at).toISOString().slice(0, 10);
    created += createdOn.get(day) ?? 0;
    resolved += resolvedOn.get(day) ?? 0;
    out.push({ day, created, resolved });
  }
  // Issues dated after today (a clock set back) still count, on the last day.
  const lastDay = out.at(-1);
  if (lastDay) {
    for (const [day, n] of createdOn) if (day > lastDay.day) lastDay.created += n;
    for (const [day, n] of resolvedOn) if (day > lastDay.day) lastDay.resolved += n;
  }
  return out;
}
