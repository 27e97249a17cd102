/** The signal and webhook event types of the comments family. */
export const commentEvents = {
  created: 'comment.created',
  updated: 'comment.updated',
  deleted: 'comment.deleted',
} as const;
