/** The signal and webhook event types of the context family (CONTRACT §6). */
export const contextEvents = {
  created: 'context.created',
  deleted: 'context.deleted',
} as const;
