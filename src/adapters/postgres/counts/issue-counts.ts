import type { LabelMatch, ListQuery } from '../../../core/port/index.js';
import { type CountKey, type MakesAtCommit, PendingCounts } from './pending-counts.js';

/**
 * Counts of issues kept by this adapter's own writes of issues (collection-writes.ts), so that
 * reads that would count thousands of rows read a few instead:
 *
 * - `outcome_issue_counts` (migration 29): an outcome's live issues by status and severity, for
 *   the outcome's summary;
 * - `issue_list_counts` (migration 30): a workspace's live issues in all (field ''), by project,
 *   status and severity, and by each pair of these (`project_id+status`, values joined by
 *   U+001F), and by all three (`project_id+status+severity`), for the exact totals of the issue
 *   lists that filter by no more than those; and
 *   (migration 31) by label, alone and with each of those, and by label archived ones included
 *   (labelListedField, for `GET /labels`); and (migration 32) all of them archived ones
 *   included (allListedField).
 *
 * An issue counts while it is live (not archived), but in allListedField and labelListedField. A write moves it
 * from the counts of the row as this transaction read it (or as stored, read and locked first)
 * to those of the row it writes;
 * the changes go with the COMMIT (PendingCounts). Only the adapter's writes keep them: an issue
 * written beside it (raw SQL, or a process of a version before the counts) is not counted.
 */

/** What an issue's counts are read from: its project, outcome, status, severity, labels and whether it is live. */
export interface IssueCounted {
  projectId: string;
  outcomeId: string | null;
  status: string;
  severity: string;
  /** Distinct: the labels `issue_labels` holds for it (countedLabels). */
  labels: readonly string[];
  live: boolean;
}

/** Half of a surrogate pair alone. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What PostgreSQL cannot read as text from JSON: U+0000, or half of a surrogate pair alone. */
const unreadable = (label: string): boolean => label.includes('\u0000') || loneSurrogate.test(label);

/**
 * The labels an issue is counted under: those `issue_labels_of` indexes for it (migration 16),
 * each once, and none at all when one of them holds what PostgreSQL cannot read as text (the
 * function then reads nothing of the issue's labels; the API refuses such labels, the storage
 * port stores them).
 */
function countedLabels(labels: unknown): readonly string[] {
  if (!Array.isArray(labels) || labels.length === 0) return [];
  if (!labels.every((label) => typeof label === 'string' && !unreadable(label))) return [];
  return [...new Set(labels as string[])];
}

/**
 * An issue's counted fields, from the issue (its stored text parsed here: PostgreSQL's JSON
 * cannot read a U+0000 in it, so its labels are not read there).
 */
export function countedOf(row: object): IssueCounted {
  const issue = row as {
    projectId?: unknown;
    outcomeId?: unknown;
    status?: unknown;
    severity?: unknown;
    labels?: unknown;
    archivedAt?: unknown;
  };
  return {
    projectId: String(issue.projectId),
    outcomeId: issue.outcomeId == null ? null : String(issue.outcomeId),
    status: String(issue.status),
    severity: String(issue.severity),
    labels: countedLabels(issue.labels),
    live: issue.archivedAt == null,
  };
}

const outcomeCounts = { table: 'outcome_issue_counts', keyColumns: ['outcome_id', 'status', 'severity'] };
const listCounts = { table: 'issue_list_counts', keyColumns: ['field', 'value'] };

/**
 * The value of a count of several columns (a pair, all three, a label with one): their values
 * joined by U+001F. Ids and fixed words hold none, and a label comes first, so one text names one
 * set of values.
 */
const joined = (...values: string[]): string => values.join('\u001f');

/** The issue columns counted by pairs, and each pair's field. */
const countedPairs = [
  ['project_id', 'status'],
  ['project_id', 'severity'],
  ['status', 'severity'],
] as const;

type ListColumn = 'project_id' | 'status' | 'severity';

/** The field of the count of all three columns. */
const tripleField = 'project_id+status+severity';
const listValue = (issue: IssueCounted, column: ListColumn): string =>
  column === 'project_id' ? issue.projectId : column === 'status' ? issue.status : issue.severity;

/**
 * The field of each label's issues archived ones included, as `GET /labels` counts them (the
 * only count that holds archived issues).
 */
export const labelListedField = 'label, archived too';

/**
 * The field of the workspace's issues archived ones included (value ''), for the totals of the
 * lists with `archived=true` (this count) and `archived=only` (this less the live issues').
 */
export const allListedField = 'all, archived too';

/** The list fields counted with each label: the label alone (''), or with one of these columns. */
const labelColumns = ['', 'project_id', 'status', 'severity'] as const;

/** The field of a label's count with `column` ('' for the label alone): `label`, `label+status`... */
const labelField = (column: ListColumn | ''): string => (column === '' ? 'label' : `label+${column}`);

/** The list counts an issue is in: when archived, only allListedField's and its labels' of labelListedField. */
function listKeys(accountId: string, workspaceId: string, issue: IssueCounted): CountKey[] {
  const key = (field: string, value: string): CountKey => ({
    accountId,
    workspaceId,
    values: [field, value],
  });
  const listed = [key(allListedField, ''), ...issue.labels.map((label) => key(labelListedField, label))];
  if (!issue.live) return listed;
  return [
    ...listed,
    key('', ''),
    ...(['project_id', 'status', 'severity'] as const).map((column) => key(column, listValue(issue, column))),
    ...countedPairs.map(([a, b]) => key(`${a}+${b}`, joined(listValue(issue, a), listValue(issue, b)))),
    key(tripleField, joined(issue.projectId, issue.status, issue.severity)),
    ...issue.labels.flatMap((label) =>
      labelColumns.map((column) =>
        key(labelField(column), column === '' ? label : joined(label, listValue(issue, column))),
      ),
    ),
  ];
}

/** The outcome count an issue is in: none without an outcome, or when archived. */
function outcomeKeys(accountId: string, workspaceId: string, issue: IssueCounted): CountKey[] {
  if (!issue.live || issue.outcomeId === null) return [];
  return [{ accountId, workspaceId, values: [issue.outcomeId, issue.status, issue.severity] }];
}

/**
 * What one transaction's issue writes changed in the counts, not written yet
 * (TransactionMemo.issueCounts): written with its COMMIT, first of the writes it carries
 * (Conn.atCommitMade), the outcome counts then the list counts, each in key order. Every
 * transaction so locks the count rows it changes at its end, before its other commit writes and
 * in one order: two changing the same counts in opposite directions (one issue resolved, another
 * reopened) never wait for each other into a deadlock over them, and a count row is locked only
 * for the COMMIT's round trip.
 */
export class PendingIssueCounts {
  private readonly outcomes = new PendingCounts(outcomeCounts);
  private readonly lists = new PendingCounts(listCounts);
  private kept = false;

  /** An issue went from `before` to `after` (null: no such issue, before its insert or after its delete). */
  moved(
    conn: MakesAtCommit,
    accountId: string,
    workspaceId: string,
    before: IssueCounted | null,
    after: IssueCounted | null,
  ): void {
    let changed = false;
    if (before) {
      changed = this.outcomes.add(outcomeKeys(accountId, workspaceId, before), -1) || changed;
      changed = this.lists.add(listKeys(accountId, workspaceId, before), -1) || changed;
    }
    if (after) {
      changed = this.outcomes.add(outcomeKeys(accountId, workspaceId, after), 1) || changed;
      changed = this.lists.add(listKeys(accountId, workspaceId, after), 1) || changed;
    }
    if (!changed || this.kept) return;
    this.kept = true;
    conn.atCommitMade(() => [...this.outcomes.statements(), ...this.lists.statements()]);
  }
}

/**
 * The tally of an outcome's live issues by status and severity, from the kept counts: each
 * group's latest update is one probe of `issues_latest_by_outcome` (its last entry). $1 the
 * account, $2 the workspace, $3 the outcome.
 */
export const keptTallySql =
  'SELECT c.status AS g0, c.severity AS g1, c.issues::int AS n, (SELECT i.updated_at FROM issues i ' +
  'WHERE i.account_id = $1 AND i.workspace_id = $2 AND i.outcome_id = $3 AND i.status = c.status ' +
  'AND i.severity = c.severity AND i.archived_at IS NULL ORDER BY i.updated_at DESC LIMIT 1) AS latest ' +
  'FROM outcome_issue_counts c WHERE c.account_id = $1 AND c.workspace_id = $2 AND c.outcome_id = $3 ' +
  'AND c.issues > 0';

/** Whether a tally is the one the counts keep: the live issues of one outcome by status and severity. */
export function isKeptTally(
  where: Record<string, unknown>,
  by: readonly string[],
): where is { outcomeId: string; archivedAt: null } {
  const keys = Object.keys(where);
  return (
    keys.length === 2 &&
    typeof where.outcomeId === 'string' &&
    Object.hasOwn(where, 'archivedAt') &&
    where.archivedAt === null &&
    by.length === 2 &&
    by[0] === 'status' &&
    by[1] === 'severity'
  );
}

/** The list fields whose totals issue_list_counts keeps, by their column. */
const listFields: Readonly<Record<string, ListColumn>> = {
  projectId: 'project_id',
  status: 'status',
  severity: 'severity',
};

/** Kept counts summed: those of `field` with any of `values`. */
export interface KeptCounts {
  field: string;
  values: string[];
}

/** A list's exact total from the kept counts: the sum of `counts`, less the sum of `less`. */
export interface KeptTotal {
  counts: KeptCounts;
  less: KeptCounts | null;
  /**
   * Whether the list's matches may be few among the issues its page walks (a label, or more
   * than one column filtered: the page walks one index and checks the rest): its total is then
   * worth reading first, so that none walks nothing.
   */
  sparse: boolean;
}

/** The one label a list asks its issues to carry, and the one it asks them not to; null when it asks more. */
function labelAsked(labels: LabelMatch): { carries: string | null; lacks: string | null } | null {
  const carried = new Set(labels.all ?? []);
  if (labels.any !== undefined) {
    // Any of one label is that label; any of several is not kept.
    if (labels.any.length > 1) return null;
    for (const label of labels.any) carried.add(label);
  }
  const lacked = new Set(labels.none ?? []);
  if (carried.size > 1 || lacked.size > 1 || (carried.size === 1 && lacked.size === 1)) return null;
  const [carries = null] = carried;
  const [lacks = null] = lacked;
  return { carries, lacks };
}

/**
 * The kept counts a list's exact total is made of, or null when the list filters by anything
 * else: the live issues (archivedAt null, as lists have it by default) filtered by any of
 * project, status and severity (each one value or any of several), or by at most one of them and
 * one label carried (`labels`, or `labelsAny` of one) or one label not carried (`labelsNone`: the
 * filter's count less the label's). `labelsAny` of none matches nothing. Or all the issues,
 * archived ones included (`archived=true`), or the archived ones alone (`archived=only`), by no
 * filter or by one label carried.
 */
export function keptListTotal(query: ListQuery<'issues'>): KeptTotal | null {
  const extra =
    query.sum !== undefined ||
    (query.range !== undefined && Object.values(query.range).some((bounds) => bounds !== undefined)) ||
    query.search !== undefined ||
    query.createdAfter !== undefined ||
    query.createdBefore !== undefined ||
    query.updatedSince !== undefined ||
    query.updatedBefore !== undefined;
  if (extra) return null;
  const where = Object.entries((query.where ?? {}) as Record<string, unknown>).filter(
    ([, v]) => v !== undefined,
  );
  const archived = archivedAsked(query, where);
  if (archived === null) return null;
  if (archived !== 'live') return where.length === 0 ? withArchived(archived, query.labels) : null;
  const filters: { column: ListColumn; values: string[] }[] = [];
  for (const [field, value] of where) {
    if (field === 'archivedAt') continue;
    const column = Object.hasOwn(listFields, field) ? listFields[field] : undefined;
    if (column === undefined) return null;
    const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : null;
    if (values === null || values.length === 0 || !values.every((v) => typeof v === 'string')) return null;
    filters.push({ column, values: [...new Set(values as string[])] });
  }
  if (query.labels !== undefined) {
    if (query.labels.any !== undefined && query.labels.any.length === 0)
      return { counts: { field: '', values: [] }, less: null, sparse: true };
    const asked = labelAsked(query.labels);
    if (asked === null || filters.length > 1) return null;
    const [filter] = filters;
    const ofLabel = (label: string): KeptCounts =>
      filter === undefined
        ? { field: labelField(''), values: [label] }
        : { field: labelField(filter.column), values: filter.values.map((v) => joined(label, v)) };
    if (asked.carries !== null) return { counts: ofLabel(asked.carries), less: null, sparse: true };
    const all = filtered(filters);
    if (all === null) return null;
    return { counts: all, less: asked.lacks === null ? null : ofLabel(asked.lacks), sparse: true };
  }
  const counts = filtered(filters);
  return counts === null ? null : { counts, less: null, sparse: filters.length > 1 };
}

/**
 * Which issues a list asks for by whether they are archived: the live ones (`archivedAt` null,
 * the API's default), all (`archived=true`: no condition), or the archived ones alone
 * (`archived=only`: `archivedAt` not null); null for anything else.
 */
function archivedAsked(
  query: ListQuery<'issues'>,
  where: readonly [string, unknown][],
): 'live' | 'all' | 'only' | null {
  const notNull = query.notNull ?? [];
  const condition = where.find(([field]) => field === 'archivedAt');
  if (condition !== undefined) return condition[1] === null && notNull.length === 0 ? 'live' : null;
  if (notNull.length === 0) return 'all';
  return notNull.length === 1 && notNull[0] === 'archivedAt' ? 'only' : null;
}

/**
 * The total of a list of issues archived ones included (or alone), by no other filter than one
 * label carried: the count of them all (or of the label's), less the live ones' for `only`.
 */
function withArchived(archived: 'all' | 'only', labels: LabelMatch | undefined): KeptTotal | null {
  let counts: KeptCounts = { field: allListedField, values: [''] };
  let live: KeptCounts = { field: '', values: [''] };
  if (labels !== undefined) {
    const asked = labelAsked(labels);
    if (asked === null || asked.carries === null || asked.lacks !== null || labels.any?.length === 0)
      return null;
    counts = { field: labelListedField, values: [asked.carries] };
    live = { field: labelField(''), values: [asked.carries] };
  }
  return { counts, less: archived === 'only' ? live : null, sparse: labels !== undefined };
}

/**
 * Of a list of archived issues with the others (`archived=true`), the kept total of its live
 * issues alone (the same list with `archivedAt` null), or null when that is not kept: the
 * archived ones, few, are then counted through the index of those rows.
 */
export function keptLiveTotal(query: ListQuery<'issues'>): KeptTotal | null {
  const where = (query.where ?? {}) as Record<string, unknown>;
  if (where.archivedAt !== undefined || (query.notNull ?? []).length > 0) return null;
  return keptListTotal({ ...query, where: { ...where, archivedAt: null } } as ListQuery<'issues'>);
}

/** The kept counts of the live issues with these values (each column once), or null when not kept. */
function filtered(filters: readonly { column: ListColumn; values: string[] }[]): KeptCounts | null {
  const [first, second, ...more] = filters;
  if (first === undefined) return { field: '', values: [''] };
  if (second === undefined) return { field: first.column, values: first.values };
  if (more.length > 0) {
    const valuesOf = (column: ListColumn) => filters.find((filter) => filter.column === column)?.values;
    const [projects, statuses, severities] = [
      valuesOf('project_id'),
      valuesOf('status'),
      valuesOf('severity'),
    ];
    if (filters.length !== 3 || !projects || !statuses || !severities) return null;
    return {
      field: tripleField,
      values: projects.flatMap((p) => statuses.flatMap((st) => severities.map((sv) => joined(p, st, sv)))),
    };
  }
  // The pair in its counted order (project before status before severity).
  const pair = countedPairs.find(
    ([a, b]) => (first.column === a && second.column === b) || (first.column === b && second.column === a),
  );
  if (pair === undefined) return null;
  const [left, right] = first.column === pair[0] ? [first, second] : [second, first];
  return {
    field: `${pair[0]}+${pair[1]}`,
    values: left.values.flatMap((a) => right.values.map((b) => joined(a, b))),
  };
}

/** The sum of the kept counts of `field` with any of `values` ($1 account, $2 workspace). */
export const keptSum = (field: string, values: string) =>
  `COALESCE((SELECT SUM(issues) FROM issue_list_counts WHERE account_id = $1 AND workspace_id = $2 ` +
  `AND field = ${field} AND value = ANY(${values}::text[])), 0)`;

/**
 * The total keptListTotal names: $1 account, $2 workspace, $3 and $4 the field and values of its
 * counts, $5 and $6 those of the counts it is less (none: no values).
 */
export const keptListTotalSql = `SELECT (${keptSum('$3', '$4')} - ${keptSum('$5', '$6')})::int AS total`;

/** keptListTotalSql's parameters. */
export const keptListTotalParams = (accountId: string, workspaceId: string, kept: KeptTotal) => [
  accountId,
  workspaceId,
  kept.counts.field,
  kept.counts.values,
  kept.less?.field ?? '',
  kept.less?.values ?? [],
];
