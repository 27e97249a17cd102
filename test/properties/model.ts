/** The simple in-memory model the model-based properties hold the API to. */

export type OutcomeStatus = 'planned' | 'in_progress' | 'shipped' | 'abandoned';
export type IssueStatus = 'open' | 'in_progress' | 'blocked' | 'resolved' | 'closed';
export type IssueSeverity = 'low' | 'medium' | 'high' | 'critical';

export const outcomeStatuses: readonly OutcomeStatus[] = ['planned', 'in_progress', 'shipped', 'abandoned'];
export const issueStatuses: readonly IssueStatus[] = ['open', 'in_progress', 'blocked', 'resolved', 'closed'];
export const issueSeverities: readonly IssueSeverity[] = ['low', 'medium', 'high', 'critical'];

/** CONTRACT §5's issue transitions, written out independently of the source's table. */
export const allowedTransitions: Record<IssueStatus, readonly IssueStatus[]> = {
  open: ['in_progress', 'blocked', 'resolved', 'closed'],
  in_progress: ['open', 'blocked', 'resolved'],
  blocked: ['open', 'in_progress', 'resolved'],
  resolved: ['closed', 'open'],
  closed: ['open'],
};

export interface ModelOutcome {
  id: string;
  title: string;
  status: OutcomeStatus;
  shippedAt: string | null;
  version: number;
  deleted: boolean;
}

export interface ModelIssue {
  id: string;
  outcomeId: string | null;
  status: IssueStatus;
  severity: IssueSeverity;
  resolvedAt: string | null;
  version: number;
}

export interface ModelTimeEntry {
  id: string;
  outcomeId: string;
  issueId: string | null;
  minutes: number;
  date: string;
  version: number;
  deleted: boolean;
}

/** A signal the model expects, in order. */
export interface ExpectedSignal {
  type: string;
  resourceId: string;
}

export interface Model {
  outcomes: ModelOutcome[];
  issues: ModelIssue[];
  entries: ModelTimeEntry[];
  /** One entry per event each successful mutation must have written; failed ones add none. */
  signals: ExpectedSignal[];
}

export const emptyModel = (): Model => ({ outcomes: [], issues: [], entries: [], signals: [] });

/** Whether an outcome is still referred to, so that deleting it must be refused. */
export const outcomeInUse = (model: Model, outcomeId: string): boolean =>
  model.issues.some((issue) => issue.outcomeId === outcomeId) ||
  model.entries.some((entry) => !entry.deleted && entry.outcomeId === outcomeId);

/** The time-entry list filters the model understands (ids, not references). */
export interface EntryFilters {
  outcomeId?: string;
  issueId?: string;
  from?: string;
  to?: string;
}

/** The live entries matching the filters, as `GET /time-entries` must count them. */
export function matchingEntries(model: Model, filters: EntryFilters): ModelTimeEntry[] {
  return model.entries.filter(
    (entry) =>
      !entry.deleted &&
      (filters.outcomeId === undefined || entry.outcomeId === filters.outcomeId) &&
      (filters.issueId === undefined || entry.issueId === filters.issueId) &&
      (filters.from === undefined || entry.date >= filters.from) &&
      (filters.to === undefined || entry.date <= filters.to),
  );
}

/** An outcome's shippedAt after its status becomes `next`: stamped on shipping, kept while shipped. */
export function nextShippedAt(current: ModelOutcome, next: OutcomeStatus, now: string): string | null {
  if (next !== 'shipped') return null;
  return current.status === 'shipped' ? current.shippedAt : now;
}
