import type { Issue, Outcome } from '../model.js';

/** The collections whose rows fall due: issues by `dueOn`, outcomes by `dueDate`. */
export interface DueRows {
  issues: Issue;
  outcomes: Outcome;
}
export type DueCollection = keyof DueRows;

/** What makes a row overdue on a day: due before it, in one of the open statuses, not archived. */
export interface OverdueRule {
  /** The first day not yet passed (`YYYY-MM-DD`, UTC): a row due before it is past its day. */
  before: string;
  /** The statuses in which a row is still open. */
  statuses: readonly string[];
}

/** A row found past its due day, not yet signalled for that day. */
export interface OverdueCandidate {
  accountId: string;
  workspaceId: string;
  id: string;
}

/**
 * Rows past their due day, each signalled once per due day: a row remembers the day it was last
 * signalled for (`overdue_signalled_for`, not part of the record), so a moved day passes again.
 */
export interface OverdueStore {
  /**
   * Up to `limit` rows of every account overdue under `rule` and not signalled for their current
   * due day, the earliest due first. A hint for `claim`, read without locks: another sweep may
   * claim any of them first.
   */
  findDue(collection: DueCollection, rule: OverdueRule, limit: number): Promise<OverdueCandidate[]>;
  /**
   * Marks the row signalled for its current due day when it is overdue under `rule` and not yet
   * marked for that day, and returns the row; null when it is not (any more), or was marked.
   * Concurrency contract: of concurrent claims of one row for one due day, exactly one returns
   * the row; the others return null once it commits (or claim it themselves if it rolls back).
   */
  claim<Name extends DueCollection>(
    collection: Name,
    workspaceId: string,
    id: string,
    rule: OverdueRule,
  ): Promise<DueRows[Name] | null>;
}
