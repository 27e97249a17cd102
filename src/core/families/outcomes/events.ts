/** The signal and webhook event types of the outcomes family (CONTRACT §6). */
export const outcomeEvents = {
  created: 'outcome.created',
  updated: 'outcome.updated',
  deleted: 'outcome.deleted',
  /** Fires, after outcome.updated or outcome.created, when the status becomes `shipped`. */
  shipped: 'outcome.shipped',
  archived: 'outcome.archived',
  unarchived: 'outcome.unarchived',
  /** Once per due date: the day `dueDate` names has passed and the outcome is still open (the overdue sweep). */
  overdue: 'outcome.overdue',
} as const;
