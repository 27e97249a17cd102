/** The signal and webhook event types of the saved views family (CONTRACT §6). */
export const viewEvents = {
  created: 'view.created',
  updated: 'view.updated',
  deleted: 'view.deleted',
} as const;
