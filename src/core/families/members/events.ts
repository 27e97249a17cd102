/** The signal and webhook event types of workspace members (CONTRACT §6, members API). */
export const memberEvents = {
  created: 'member.created',
  updated: 'member.updated',
  deleted: 'member.deleted',
} as const;
