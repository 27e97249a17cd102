/** The signal and webhook event types of issue relations. */
export const relationEvents = {
  created: 'issue_relation.created',
  deleted: 'issue_relation.deleted',
} as const;
