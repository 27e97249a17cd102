import type { IssueStatus } from '../../model.js';

/** The issue state machine (CONTRACT §5): from each status, the statuses a transition may reach. */
export const issueTransitions: Record<IssueStatus, readonly IssueStatus[]> = {
  open: ['in_progress', 'blocked', 'resolved', 'closed'],
  in_progress: ['open', 'blocked', 'resolved'],
  blocked: ['open', 'in_progress', 'resolved'],
  resolved: ['closed', 'open'],
  closed: ['open'],
};

export const canTransition = (from: IssueStatus, to: IssueStatus): boolean =>
  issueTransitions[from].includes(to);
