/** The signal and webhook event types of the issues family (CONTRACT §6). */
export const issueEvents = {
  created: 'issue.created',
  updated: 'issue.updated',
  statusChanged: 'issue.status_changed',
  archived: 'issue.archived',
  unarchived: 'issue.unarchived',
} as const;
