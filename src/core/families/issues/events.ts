/** The signal and webhook event types of the issues family (CONTRACT §6). */
export const issueEvents = {
  created: 'issue.created',
  updated: 'issue.updated',
  statusChanged: 'issue.status_changed',
  archived: 'issue.archived',
  unarchived: 'issue.unarchived',
  /** Once per due day: the day `dueOn` names has passed and the issue is still open (the overdue sweep). */
  overdue: 'issue.overdue',
} as const;
